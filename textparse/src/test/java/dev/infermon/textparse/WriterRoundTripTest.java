package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * Random metric families written by client_java's own writers (text 0.0.4 and OpenMetrics) parse
 * back, with {@link Conformance#STRICT} rules, to exactly what was written: every series with its
 * labels, value and timestamp, and each family's HELP, TYPE and (OpenMetrics) UNIT.
 */
class WriterRoundTripTest {
  /** One family as generated: kind 0 gauge, 1 counter, 2 histogram, 3 summary. */
  record Family(int kind, String help, boolean unit, List<Point> points) {}

  /** One data point: labels, a value (or the observations of a histogram/summary), a timestamp. */
  record Point(Map<String, String> labels, double value, long[] counts, double sum, Long ts) {}

  @Provide
  Arbitrary<List<Family>> families() {
    return family().list().ofMinSize(1).ofMaxSize(4);
  }

  private Arbitrary<Family> family() {
    Arbitrary<Integer> kind = Arbitraries.integers().between(0, 3);
    return Combinators.combine(kind, help(), Arbitraries.of(true, false), points()).as(Family::new);
  }

  private Arbitrary<String> help() {
    return Arbitraries.strings()
        .withChars("ab z\\\"\n\tä☃")
        .ofMaxLength(12)
        .map(s -> "h " + s); // never empty: the writers drop an empty HELP
  }

  private Arbitrary<List<Point>> points() {
    Arbitrary<Map<String, String>> labels =
        Arbitraries.maps(
                Arbitraries.of("a", "b", "model_name", "engine", "_x", "Zz9"),
                Arbitraries.strings().withChars("xy \"\\\n{}=,#☃ö").ofMinLength(1).ofMaxLength(8))
            .ofMaxSize(3);
    Arbitrary<Double> value =
        Arbitraries.oneOf(
            Arbitraries.doubles().between(-1e12, 1e12),
            Arbitraries.of(0.0, 1.0, 1e-9, 123456789.123, Double.MAX_VALUE, Double.MIN_VALUE));
    Arbitrary<long[]> counts =
        Arbitraries.longs().between(0, 1000).array(long[].class).ofMinSize(1).ofMaxSize(4);
    Arbitrary<Double> sum = Arbitraries.doubles().between(0, 1e6);
    Arbitrary<Long> ts = Arbitraries.longs().between(1, 4_102_444_800_000L).injectNull(0.5);
    return Combinators.combine(labels, value, counts, sum, ts)
        .as(Point::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .uniqueElements(Point::labels);
  }

  @Property(tries = 150, shrinking = ShrinkingMode.BOUNDED)
  void textWriterOutputParsesBack(@ForAll("families") List<Family> families) throws Exception {
    roundTrip(families, false);
  }

  @Property(tries = 150, shrinking = ShrinkingMode.BOUNDED)
  void openMetricsWriterOutputParsesBack(@ForAll("families") List<Family> families)
      throws Exception {
    roundTrip(families, true);
  }

  private static void roundTrip(List<Family> families, boolean om) throws Exception {
    List<MetricSnapshot> snapshots = new ArrayList<>();
    Map<String, String> expected = new TreeMap<>();
    List<String> expectedMeta = new ArrayList<>();
    for (int i = 0; i < families.size(); i++) {
      snapshots.add(snapshot(families.get(i), "m" + i + "_seconds", om, expected, expectedMeta));
    }
    byte[] page = write(new MetricSnapshots(snapshots), om);
    ParserOptions strict = ParserOptions.builder().conformance(Conformance.STRICT).build();
    Parser p = Parsers.forFormat(om ? Format.OPENMETRICS : Format.TEXT, strict).parse(page);
    Map<String, String> actual = new TreeMap<>();
    List<String> actualMeta = new ArrayList<>();
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      switch (e) {
        case HELP:
          actualMeta.add("HELP " + p.familyName() + " " + p.help());
          break;
        case TYPE:
          actualMeta.add("TYPE " + p.familyName() + " " + p.type().exposedName());
          break;
        case UNIT:
          actualMeta.add("UNIT " + p.familyName() + " " + p.unit());
          break;
        case SERIES:
          String prev =
              actual.put(
                  key(p.labels()), sample(p.value(), p.hasTimestamp() ? p.timestamp() : null));
          assertThat(prev).as("series written once").isNull();
          break;
        default:
          throw new AssertionError("unexpected " + e);
      }
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(actualMeta).containsExactlyInAnyOrderElementsOf(expectedMeta);
  }

  private static MetricSnapshot snapshot(
      Family f, String name, boolean om, Map<String, String> expected, List<String> meta) {
    String family = om || f.kind() != 1 ? name : name + "_total";
    meta.add("HELP " + family + " " + f.help());
    String type = new String[] {"gauge", "counter", "histogram", "summary"}[f.kind()];
    meta.add("TYPE " + family + " " + type);
    if (om && f.unit()) {
      meta.add("UNIT " + family + " seconds");
    }
    switch (f.kind()) {
      case 0:
        {
          GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(f.help());
          unit(b, f);
          for (Point pt : f.points()) {
            GaugeSnapshot.GaugeDataPointSnapshot.Builder d =
                GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels(pt)).value(pt.value());
            if (pt.ts() != null) {
              d.scrapeTimestampMillis(pt.ts());
            }
            b.dataPoint(d.build());
            expected.put(key(name, pt.labels(), null), sample(pt.value(), pt.ts()));
          }
          return b.build();
        }
      case 1:
        {
          CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(f.help());
          unit(b, f);
          for (Point pt : f.points()) {
            double v = Math.abs(pt.value());
            CounterSnapshot.CounterDataPointSnapshot.Builder d =
                CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels(pt)).value(v);
            if (pt.ts() != null) {
              d.scrapeTimestampMillis(pt.ts());
            }
            b.dataPoint(d.build());
            expected.put(key(name + "_total", pt.labels(), null), sample(v, pt.ts()));
          }
          return b.build();
        }
      case 2:
        {
          HistogramSnapshot.Builder b = HistogramSnapshot.builder().name(name).help(f.help());
          unit(b, f);
          for (Point pt : f.points()) {
            int n = pt.counts().length;
            double[] bounds = new double[n];
            long total = 0;
            for (int i = 0; i < n; i++) {
              bounds[i] = i == n - 1 ? Double.POSITIVE_INFINITY : 0.25 * (i + 1);
            }
            HistogramSnapshot.HistogramDataPointSnapshot.Builder d =
                HistogramSnapshot.HistogramDataPointSnapshot.builder()
                    .labels(labels(pt))
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, pt.counts()));
            d.sum(pt.sum());
            if (pt.ts() != null) {
              d.scrapeTimestampMillis(pt.ts());
            }
            b.dataPoint(d.build());
            for (int i = 0; i < n; i++) {
              total += pt.counts()[i];
              expected.put(key(name + "_bucket", pt.labels(), bounds[i]), sample(total, pt.ts()));
            }
            expected.put(key(name + "_count", pt.labels(), null), sample(total, pt.ts()));
            expected.put(key(name + "_sum", pt.labels(), null), sample(pt.sum(), pt.ts()));
          }
          return b.build();
        }
      default:
        {
          SummarySnapshot.Builder b = SummarySnapshot.builder().name(name).help(f.help());
          unit(b, f);
          for (Point pt : f.points()) {
            long count = pt.counts()[0];
            double q50 = Math.abs(pt.value());
            SummarySnapshot.SummaryDataPointSnapshot.Builder d =
                SummarySnapshot.SummaryDataPointSnapshot.builder()
                    .labels(labels(pt))
                    .quantiles(Quantiles.of(new Quantile(0.5, q50)))
                    .count(count);
            d.sum(pt.sum());
            if (pt.ts() != null) {
              d.scrapeTimestampMillis(pt.ts());
            }
            b.dataPoint(d.build());
            Map<String, String> withQ = new LinkedHashMap<>(pt.labels());
            withQ.put("quantile", "0.5");
            expected.put(key(name, withQ, null), sample(q50, pt.ts()));
            expected.put(key(name + "_count", pt.labels(), null), sample(count, pt.ts()));
            expected.put(key(name + "_sum", pt.labels(), null), sample(pt.sum(), pt.ts()));
          }
          return b.build();
        }
    }
  }

  private static void unit(MetricSnapshot.Builder<?> b, Family f) {
    if (f.unit()) {
      b.unit(Unit.SECONDS);
    }
  }

  private static io.prometheus.metrics.model.snapshots.Labels labels(Point pt) {
    io.prometheus.metrics.model.snapshots.Labels.Builder b =
        io.prometheus.metrics.model.snapshots.Labels.builder();
    pt.labels().forEach(b::label);
    return b.build();
  }

  private static byte[] write(MetricSnapshots snapshots, boolean om) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (om) {
      OpenMetricsTextFormatWriter.create().write(out, snapshots, EscapingScheme.ALLOW_UTF8);
    } else {
      PrometheusTextFormatWriter.create().write(out, snapshots, EscapingScheme.ALLOW_UTF8);
    }
    return out.toByteArray();
  }

  /** The series as {@link Labels#toString()} prints it; {@code le} compared as a number. */
  private static String key(Labels labels) {
    Labels.Builder b = labels.toBuilder();
    String le = labels.get("le");
    if (!le.isEmpty()) {
      Numbers n = new Numbers();
      byte[] raw = le.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertThat(n.parseFloat(raw, 0, raw.length)).as("le %s is a number", le).isTrue();
      b.set("le", Double.toString(n.value));
    }
    return b.build().toString();
  }

  private static String key(String name, Map<String, String> labels, Double le) {
    Labels.Builder b = Labels.builder().set(Labels.METRIC_NAME, name);
    labels.forEach(b::set);
    if (le != null) {
      b.set("le", Double.toString(le));
    }
    return b.build().toString();
  }

  private static String sample(double v, Long ts) {
    return Double.doubleToLongBits(v) + (ts == null ? "" : " @" + ts);
  }
}
