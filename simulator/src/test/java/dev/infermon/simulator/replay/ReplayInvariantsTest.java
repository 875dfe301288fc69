package dev.infermon.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.model.labels.Labels;
import dev.infermon.simulator.text.PyFloat;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Over generated pages (counters, gauges, histograms, summaries and untyped families; Python,
 * integer and exponent value styles; {@code _sum} before or after the buckets; text and
 * OpenMetrics), the replay at two later instants: every page still parses by its format's full
 * rules (OpenMetrics: whole-number counts), has the capture's series, advancing values never
 * decrease and grow by one common factor (integer counters and OpenMetrics counts by its floor),
 * gauges stay, buckets stay cumulative with {@code _count} equal to {@code +Inf}, and means stay
 * those of the capture.
 */
class ReplayInvariantsTest {
  enum Kind {
    COUNTER,
    GAUGE,
    HISTOGRAM,
    SUMMARY,
    UNTYPED_TOTAL,
    UNTYPED
  }

  enum Style {
    PYTHON,
    INTEGER,
    EXPONENT
  }

  /** One family: its kind, how values are written, and numbers to build its samples from. */
  record Family(
      Kind kind,
      Style style,
      int series,
      List<Integer> counts,
      double scale,
      boolean sumFirst,
      boolean created) {}

  @Provide
  Arbitrary<Family> family() {
    return Combinators.combine(
            Arbitraries.of(Kind.class),
            Arbitraries.of(Style.class),
            Arbitraries.integers().between(1, 3),
            Arbitraries.integers().between(0, 5000).list().ofMinSize(1).ofMaxSize(6),
            Arbitraries.of(1.0, 0.5, 0.001, 1234.5678, 3.0e10),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false))
        .as(Family::new);
  }

  @Provide
  Arbitrary<List<Family>> families() {
    return family().list().ofMinSize(1).ofMaxSize(6);
  }

  @Property(tries = 300)
  void replayedPagesStayMonotoneAndConsistent(
      @ForAll("families") List<Family> families,
      @ForAll boolean openMetrics,
      @ForAll @IntRange(min = 1, max = 24 * 60) int uptimeMinutes,
      @ForAll @LongRange(min = 0, max = 7 * 24 * 3600_000L) long firstMillis,
      @ForAll @LongRange(min = 1, max = 7 * 24 * 3600_000L) long gapMillis)
      throws Exception {
    Format format = openMetrics ? Format.OPENMETRICS : Format.TEXT;
    String text = page(families, format);
    Capture capture = Capture.parse("generated", text.getBytes(StandardCharsets.UTF_8));
    assertThat(capture.format()).isEqualTo(format);
    ReplayTarget target =
        ReplayTarget.of(
            Path.of("generated.prom"), capture, Map.of(), Duration.ofMinutes(uptimeMinutes));
    long t0 = 1_790_000_000_000L;
    ReplayFleet fleet = ReplayFleet.of(List.of(target), t0);

    ScrapedPage p0 = strict(text, format);
    ScrapedPage p1 = strict(fleet.render(target.name(), t0 + firstMillis), format);
    ScrapedPage p2 = strict(fleet.render(target.name(), t0 + firstMillis + gapMillis), format);
    double f2 = fleet.factor(target, t0 + firstMillis + gapMillis);
    assertThat(p1.bySeries().keySet()).containsExactlyElementsOf(p0.bySeries().keySet());
    assertThat(p2.bySeries().keySet()).containsExactlyElementsOf(p0.bySeries().keySet());
    for (ScrapedPage.Sample s0 : p0.samples()) {
      double v1 = p1.bySeries().get(s0.labels()).value();
      double v2 = p2.bySeries().get(s0.labels()).value();
      if (!s0.advances()) {
        assertThat(v1).isEqualTo(s0.value());
        assertThat(v2).isEqualTo(s0.value());
        continue;
      }
      assertThat(v1).as("%s", s0.labels()).isGreaterThanOrEqualTo(s0.value());
      assertThat(v2).as("%s", s0.labels()).isGreaterThanOrEqualTo(v1);
      if (!s0.name().endsWith("_sum")) { // a sum follows its count: its mean is checked below
        assertThat(v2)
            .as("%s grows by the factor", s0.labels())
            .isIn(s0.value() * f2, Math.floor(s0.value() * f2));
      }
    }
    for (ScrapedPage p : List.of(p1, p2)) {
      for (Map.Entry<Labels, ScrapedPage.Histogram> e : p.histograms().entrySet()) {
        ScrapedPage.Histogram h = e.getValue();
        double previous = 0;
        for (double b : h.buckets.values()) {
          assertThat(b).as("%s cumulative", e.getKey()).isGreaterThanOrEqualTo(previous);
          previous = b;
        }
        assertThat(h.count).as("%s _count = +Inf", e.getKey()).isEqualTo(previous);
        ScrapedPage.Histogram h0 = p0.histograms().get(e.getKey());
        if (h0.count > 0) {
          assertThat(h.sum / h.count)
              .isCloseTo(h0.sum / h0.count, within(1e-9 * h0.sum / h0.count));
        }
      }
    }
  }

  private static ScrapedPage strict(String page, Format format) throws Exception {
    // the format's default rules: text as Prometheus reads it, OpenMetrics by its specification
    Parser p =
        Parsers.forFormat(format, ParserOptions.DEFAULT)
            .parse(page.getBytes(StandardCharsets.UTF_8));
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      // every line, by the format's full rules
    }
    return ScrapedPage.parse(page, format.contentType());
  }

  /** A page of {@code families}, named f0, f1, ... */
  static String page(List<Family> families, Format format) {
    boolean om = format == Format.OPENMETRICS;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < families.size(); i++) {
      Family f = families.get(i);
      String name = "f" + i;
      switch (f.kind()) {
        case COUNTER:
          sb.append("# TYPE ").append(om ? name : name + "_total").append(" counter\n");
          for (int s = 0; s < f.series(); s++) {
            sample(sb, name + "_total", s, null, value(f, f.counts().get(s % f.counts().size())));
            if (om && f.created()) {
              sample(sb, name + "_created", s, null, "1.7e9");
            }
          }
          break;
        case GAUGE:
          sb.append("# TYPE ").append(name).append(" gauge\n");
          for (int s = 0; s < f.series(); s++) {
            sample(sb, name, s, null, value(f, f.counts().get(s % f.counts().size())));
          }
          break;
        case HISTOGRAM:
          histogram(sb, name, f, om);
          break;
        case SUMMARY:
          sb.append("# TYPE ").append(name).append(" summary\n");
          for (int s = 0; s < f.series(); s++) {
            sample(sb, name, s, "quantile=\"0.5\"", value(f, 3));
            sample(sb, name + "_sum", s, null, value(f, 10 * f.counts().get(0)));
            sample(sb, name + "_count", s, null, Integer.toString(f.counts().get(0)));
          }
          break;
        case UNTYPED_TOTAL:
        case UNTYPED:
          String n = f.kind() == Kind.UNTYPED_TOTAL ? name + "_total" : name;
          if (om) {
            sb.append("# TYPE ").append(n).append(" unknown\n");
          }
          for (int s = 0; s < f.series(); s++) {
            sample(sb, n, s, null, value(f, f.counts().get(s % f.counts().size())));
          }
          break;
        default:
          throw new AssertionError(f.kind());
      }
    }
    return om ? sb.append("# EOF\n").toString() : sb.toString();
  }

  /** Cumulative buckets from the counts, {@code +Inf} = {@code _count}, sum before or after. */
  private static void histogram(StringBuilder sb, String name, Family f, boolean om) {
    sb.append("# TYPE ").append(name).append(" histogram\n");
    for (int s = 0; s < f.series(); s++) {
      long total = 0;
      StringBuilder buckets = new StringBuilder();
      for (int b = 0; b < f.counts().size(); b++) {
        total += f.counts().get(b) >> s;
        String le = b == f.counts().size() - 1 ? "+Inf" : PyFloat.format(0.01 * (b + 1));
        sample(buckets, name + "_bucket", s, "le=\"" + le + "\"", integerValue(f, total));
      }
      String sum = value(f, total);
      if (f.sumFirst()) {
        sample(sb, name + "_sum", s, null, sum);
      }
      sb.append(buckets);
      sample(sb, name + "_count", s, null, integerValue(f, total));
      if (!f.sumFirst()) {
        sample(sb, name + "_sum", s, null, sum);
      }
    }
  }

  private static void sample(StringBuilder sb, String name, int series, String extra, String v) {
    sb.append(name).append("{model_name=\"m").append(series).append('"');
    if (extra != null) {
      sb.append(',').append(extra);
    }
    sb.append("} ").append(v).append('\n');
  }

  /** {@code count * scale} in the family's style (integers for the integer style). */
  private static String value(Family f, long count) {
    switch (f.style()) {
      case INTEGER:
        return Long.toString(count);
      case EXPONENT:
        return String.format(java.util.Locale.ROOT, "%.6e", count * f.scale());
      default:
        return PyFloat.format(count * f.scale());
    }
  }

  private static String integerValue(Family f, long count) {
    return f.style() == Style.INTEGER ? Long.toString(count) : PyFloat.format((double) count);
  }
}
