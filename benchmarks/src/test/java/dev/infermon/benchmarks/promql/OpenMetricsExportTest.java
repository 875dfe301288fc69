package dev.infermon.benchmarks.promql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.testing.MemoryStorage;
import java.io.IOException;
import java.io.StringWriter;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OpenMetricsExportTest {
  @Test
  void timestampsReadBackAsTheSameMillisecondThroughPrometheusTruncatingParse() {
    // "1.001" parses to 1.000999..., which 2.42's int64(ts * 1000) truncates to 1000
    assertThat(OpenMetricsExport.parsedMillis("1.001")).isEqualTo(1000);
    for (long ms = 0; ms < 200_000; ms++) {
      assertThat(OpenMetricsExport.parsedMillis(OpenMetricsExport.timestamp(ms))).isEqualTo(ms);
    }
    long now = 1_796_655_936_000L;
    for (long ms = now; ms < now + 200_000; ms++) {
      assertThat(OpenMetricsExport.parsedMillis(OpenMetricsExport.timestamp(ms))).isEqualTo(ms);
    }
    assertThat(OpenMetricsExport.timestamp(now)).isEqualTo("1796655936");
    assertThatThrownBy(() -> OpenMetricsExport.timestamp(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }

  @Test
  void valuesReadBackAsTheSameDouble() {
    assertThat(OpenMetricsExport.value(-0.0)).isEqualTo("-0");
    assertThat(OpenMetricsExport.value(0)).isEqualTo("0");
    assertThat(OpenMetricsExport.value(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(OpenMetricsExport.value(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(OpenMetricsExport.value(Double.NaN)).isEqualTo("NaN");
    for (double v : new double[] {0.1, 1e20, 123456789.125, 5e-324, Double.MAX_VALUE, -2.5e-7}) {
      assertThat(Double.parseDouble(OpenMetricsExport.value(v))).isEqualTo(v);
    }
  }

  @Test
  void writesOneWindowsSamplesSeriesBySeriesEscapedLeavingStalenessMarkersOut() throws IOException {
    MemoryStorage db = new MemoryStorage();
    Labels a = Labels.of("__name__", "vllm:num_requests_running", "pod", "p\"0\\\n");
    Labels b = Labels.of("__name__", "up", "pod", "p1");
    Appender app = db.appender();
    app.append(0, a, 1_000, 1);
    app.append(0, b, 1_000, 1);
    app.append(0, a, 2_500, 2.5);
    app.append(0, b, 2_500, StaleNaN.VALUE);
    app.append(0, a, 9_000, 3);
    app.commit();
    StringWriter out = new StringWriter();
    Set<Labels> seen = new HashSet<>();
    long[] counts;
    try (Querier q = db.querier()) {
      counts = OpenMetricsExport.write(q, 0, 8_999, 0, 1, out, seen);
    }
    assertThat(counts).containsExactly(3, 1);
    assertThat(seen).containsExactlyInAnyOrder(a, b);
    assertThat(out.toString().lines())
        .containsExactlyInAnyOrder(
            "vllm:num_requests_running{pod=\"p\\\"0\\\\\\n\"} 1 1",
            "vllm:num_requests_running{pod=\"p\\\"0\\\\\\n\"} 2.5 2.500",
            "up{pod=\"p1\"} 1 1",
            "# EOF");
    assertThat(out.toString()).endsWith("# EOF\n");
    assertThat(out.toString().indexOf("1 1\n")).isLessThan(out.toString().indexOf("2.5 2.500"));
  }

  @Test
  void optionErrorsNameTheValue() {
    assertThatThrownBy(() -> Cli.options(new String[] {"--rounds"}, Set.of("rounds")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--rounds");
    assertThatThrownBy(() -> Cli.options(new String[] {"--round", "3"}, Set.of("rounds")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--round");
    assertThatThrownBy(
            () ->
                Cli.intOption(
                    Cli.options(new String[] {"--rounds", "x"}, Set.of("rounds")), "rounds", 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--rounds x");
    assertThatThrownBy(
            () ->
                Cli.intOption(
                    Cli.options(new String[] {"--rounds", "0"}, Set.of("rounds")), "rounds", 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--rounds 0");
  }

  @Test
  void aQuerysLongestRangeBoundsWhatItReadsBeforeAPoint() {
    assertThat(DashboardVsPrometheus.longestRangeMs("up")).isEqualTo(300_000);
    assertThat(DashboardVsPrometheus.longestRangeMs("rate(x[5m]) / max_over_time(y[1h:1m])"))
        .isEqualTo(3_600_000);
    assertThat(DashboardVsPrometheus.longestRangeMs("changes(x[90s])")).isEqualTo(300_000);
  }
}
