package dev.infermon.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.textparse.Format;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the replay writes for each kind of line, as a table: page in, factor, page out. */
class CaptureTest {
  record Row(String what, String name, String page, double factor, String expected) {}

  static Stream<Row> rendering() {
    String om = "# TYPE h histogram\n";
    return Stream.of(
        new Row(
            "a counter grows",
            "p",
            "# TYPE c_total counter\nc_total 2.0\n",
            1.5,
            "# TYPE c_total counter\nc_total 3.0\n"),
        new Row(
            "at factor 1 the value is written as captured",
            "p",
            "# TYPE c_total counter\nc_total 2.00\n",
            1,
            "# TYPE c_total counter\nc_total 2.00\n"),
        new Row(
            "a counter written as an integer stays one, rounded down",
            "p",
            "# TYPE c counter\nc 3\n",
            1.5,
            "# TYPE c counter\nc 4\n"),
        new Row(
            "prometheus_client's three-digit exponents",
            "p",
            "# TYPE c_total counter\nc_total 1.0463768576e+010\n",
            2,
            "# TYPE c_total counter\nc_total 2.0927537152e+010\n"),
        new Row(
            "a gauge stays as written",
            "p",
            "# TYPE g gauge\ng 1.15891634176e+011\n",
            3,
            "# TYPE g gauge\ng 1.15891634176e+011\n"),
        new Row(
            "_created stays (OpenMetrics counter)",
            "p",
            "# TYPE c counter\nc_total 4\nc_created 1.7e+09\n# EOF\n",
            2,
            "# TYPE c counter\nc_total 8\nc_created 1.7e+09\n# EOF\n"),
        new Row(
            "_created stays (text: its own gauge family)",
            "p",
            "# TYPE c_created gauge\nc_created 1.7e+09\n",
            2,
            "# TYPE c_created gauge\nc_created 1.7e+09\n"),
        new Row(
            "untyped: _total is a counter, anything else a gauge",
            "p",
            "u_total 1.0\nu 1.0\n",
            2,
            "u_total 2.0\nu 1.0\n"),
        new Row(
            "a negative or NaN counter stays",
            "p",
            "# TYPE c_total counter\nc_total -1.0\nc_total{a=\"b\"} NaN\n",
            2,
            "# TYPE c_total counter\nc_total -1.0\nc_total{a=\"b\"} NaN\n"),
        new Row(
            "timestamps are dropped, the series kept as written",
            "p",
            "# TYPE g gauge\ng{b=\"1\",a=\"2\"}   7   1700000000000\n",
            2,
            "# TYPE g gauge\ng{b=\"1\",a=\"2\"} 7\n"),
        new Row(
            "a text histogram grows by the factor, fractions included; _sum first kept",
            "p",
            "# TYPE h histogram\nh_sum 3.0\nh_bucket{le=\"1\"} 1.0\nh_bucket{le=\"+Inf\"} 2.0\n"
                + "h_count 2.0\n",
            1.25,
            "# TYPE h histogram\nh_sum 3.75\nh_bucket{le=\"1\"} 1.25\nh_bucket{le=\"+Inf\"} 2.5\n"
                + "h_count 2.5\n"),
        new Row(
            "OpenMetrics counts stay whole, the sum follows the count, exemplars kept",
            "p",
            om
                + "h_bucket{le=\"1\"} 1 # {trace_id=\"a\"} 0.5 1.7e+09\nh_bucket{le=\"+Inf\"} 2\n"
                + "h_count 2\nh_sum 3.0\n# EOF\n",
            1.8,
            om
                + "h_bucket{le=\"1\"} 1 # {trace_id=\"a\"} 0.5 1.7e+09\nh_bucket{le=\"+Inf\"} 3\n"
                + "h_count 3\nh_sum 4.5\n# EOF\n"),
        new Row(
            "a summary's quantiles stay, its count and sum grow",
            "p",
            "# TYPE s summary\ns{quantile=\"0.5\"} 0.2\ns_sum 1.0\ns_count 4.0\n",
            2,
            "# TYPE s summary\ns{quantile=\"0.5\"} 0.2\ns_sum 2.0\ns_count 8.0\n"),
        new Row(
            "a missing final newline is added",
            "p",
            "# TYPE g gauge\ng 0.0",
            2,
            "# TYPE g gauge\ng 0.0\n"),
        new Row(
            "a cut last line without newline is dropped",
            "p",
            "# TYPE c_total counter\nc_total 1.0\nc_total{a=\"x",
            2,
            "# TYPE c_total counter\nc_total 2.0\n"),
        new Row(
            "an excerpt's cut last line is dropped, newline or not",
            "p_TRUNCATED",
            "# TYPE g gauge\ng 1.0\ng{a=\"x\n",
            2,
            "# TYPE g gauge\ng 1.0\n"),
        new Row(
            "an excerpt's HELP/TYPE after its last sample are dropped",
            "p_EXCERPT",
            "# TYPE g gauge\ng 1.0\n# HELP h The cut\n# TYPE h gauge\n",
            2,
            "# TYPE g gauge\ng 1.0\n"),
        new Row(
            "a whole page keeps a family without samples",
            "p",
            "# TYPE g gauge\ng 1.0\n# HELP h A family\n# TYPE h histogram\n",
            2,
            "# TYPE g gauge\ng 1.0\n# HELP h A family\n# TYPE h histogram\n"),
        new Row(
            "a cut OpenMetrics excerpt gets its # EOF",
            "p_EXCERPT",
            "# TYPE i info\ni_info{v=\"1\"} 1\n# TYPE c counter\nc_total 1\nc_tot",
            3,
            "# TYPE i info\ni_info{v=\"1\"} 1\n# TYPE c counter\nc_total 3\n# EOF\n"),
        new Row(
            "dcgm's energy since GPU boot grows at the power draw beside it (W x 1000 mJ/s), not"
                + " by the factor",
            "p",
            POWER + "{gpu=\"0\"} 40.5\n" + ENERGY + "{gpu=\"0\"} 1000000\n",
            2,
            // one uptime (3,600 s) later at 40.5 W: 1,000,000 + 40.5 x 1000 x 3600 mJ
            POWER + "{gpu=\"0\"} 40.5\n" + ENERGY + "{gpu=\"0\"} 146800000\n"),
        new Row(
            "an energy counter whose GPU has no power gauge grows by the factor",
            "p",
            POWER + "{gpu=\"1\"} 40.5\n" + ENERGY + "{gpu=\"0\"} 1000000\n",
            2,
            POWER + "{gpu=\"1\"} 40.5\n" + ENERGY + "{gpu=\"0\"} 2000000\n"));
  }

  /** dcgm's family headers up to the sample name; a row appends labels and value. */
  private static final String POWER =
      "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE";

  private static final String ENERGY =
      "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\nDCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";

  @ParameterizedTest(name = "{0}")
  @MethodSource("rendering")
  void renders(Row row) throws Exception {
    Capture c = Capture.parse(row.name(), row.page().getBytes(StandardCharsets.UTF_8));
    assertThat(c.render(row.factor(), Duration.ofHours(1))).isEqualTo(row.expected());
  }

  record Bad(String what, String name, String page, int line, int column, String detail) {}

  static Stream<Bad> errors() {
    return Stream.of(
        new Bad(
            "a bad line before the end",
            "page.txt",
            "g 1.0\ng{ 2\ng 3.0\n",
            2,
            4,
            "expected a label name"),
        new Bad(
            "a bad last line with its newline, not marked as an excerpt",
            "page.txt",
            "g 1.0\ng{a=\"x\n",
            2,
            0,
            ""),
        new Bad("HTML", "index.html", "<html><body>hi</body></html>\n", 1, 1, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void refuses(Bad bad) {
    assertThatThrownBy(() -> Capture.parse(bad.name(), bad.page().getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            CaptureException.class,
            e -> {
              assertThat(e.capture()).isEqualTo(bad.name());
              assertThat(e.line()).isEqualTo(bad.line());
              if (bad.column() > 0) {
                assertThat(e.column()).isEqualTo(bad.column());
              }
              assertThat(e.detail()).contains(bad.detail());
              assertThat(e.getMessage())
                  .startsWith(bad.name() + ":" + bad.line() + ":")
                  .contains("not an exposition page");
            });
  }

  @org.junit.jupiter.api.Test
  void saysWhatItDroppedAndWhatItIs() throws Exception {
    Capture c =
        Capture.parse(
            "x_TRUNCATED.prom",
            "# TYPE vllm:x_total counter\nvllm:x_total 1.0\n# HELP y cut\n"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(c.droppedLines()).isEqualTo(List.of(3));
    assertThat(c.samples()).isEqualTo(1);
    assertThat(c.advancingSamples()).isEqualTo(1);
    assertThat(c.engine()).isEqualTo("vllm");
    assertThat(c.format()).isEqualTo(Format.TEXT);
    assertThatThrownBy(() -> c.render(-1, Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
