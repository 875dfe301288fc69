package dev.infermon.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Steps further apart than the lookback window read only each step's window of samples (the
 * inventory's {@code max_over_time(x[6h:36m])}); the answers must be those of the dense read, which
 * an instant query (one step) still takes: a range query equals the instant queries at its steps.
 */
class SparseInstantSelectorTest {
  private static final Engine ENGINE = new Engine(EngineOptions.DEFAULTS);
  private static final long MIN = 60_000;

  @Test
  void rangeQueryWithStepsBeyondTheLookbackEqualsInstantQueriesAtEachStep() {
    MemoryStorage storage = fleet(new Random(25));
    long start = 7 * MIN;
    long end = 6 * 60 * MIN;
    for (String q : List.of("m", "m offset 3m", "timestamp(m)", "abs(m)")) {
      for (long step : List.of(6 * MIN, 36 * MIN, 5 * MIN + 10_000)) {
        Matrix range = (Matrix) ENGINE.rangeQuery(storage, parse(q), start, end, step).value();
        assertThat(byLabels(range))
            .as(q + " step " + step)
            .isEqualTo(instants(storage, q, start, end, step));
      }
    }
  }

  @Test
  void subqueryOverTheWindowAnswersAsItsStepsDo() {
    MemoryStorage storage = fleet(new Random(7));
    long t = 6 * 60 * MIN;
    QueryResult r = ENGINE.instantQuery(storage, parse("max_over_time(abs(m)[6h:36m])"), t);
    TreeMap<Labels, Double> expected = new TreeMap<>();
    for (long s = (t - 6 * 60 * MIN) / (36 * MIN) * (36 * MIN) + 36 * MIN; s <= t; s += 36 * MIN) {
      for (Sample x :
          ((Vector) ENGINE.instantQuery(storage, parse("abs(m)"), s).value()).samples()) {
        expected.merge(x.labels().withoutMetricName(), x.value(), Math::max);
      }
    }
    TreeMap<Labels, Double> got = new TreeMap<>();
    for (Sample x : ((Vector) r.value()).samples()) {
      got.put(x.labels(), x.value());
    }
    assertThat(got).isNotEmpty().isEqualTo(expected);
  }

  /** Series with gaps longer than the lookback, staleness markers and different intervals. */
  private static MemoryStorage fleet(Random rnd) {
    MemoryStorage s = new MemoryStorage();
    Appender app = s.appender();
    for (int i = 0; i < 12; i++) {
      Labels l = Labels.of("__name__", "m", "pod", "p" + i);
      long every = 10_000L * (1 + i % 4);
      for (long t = rnd.nextInt(6) * 10_000L; t < 6 * 60 * MIN; t += every) {
        if (rnd.nextInt(200) == 0) {
          t += rnd.nextInt(40) * MIN; // a gap of up to 40 minutes
        }
        app.append(l, t, rnd.nextInt(50) == 0 ? StaleNaN.VALUE : rnd.nextInt(1000) - 500);
      }
    }
    app.commit();
    return s;
  }

  private static TreeMap<Labels, List<String>> instants(
      MemoryStorage storage, String q, long start, long end, long step) {
    TreeMap<Labels, List<String>> out = new TreeMap<>();
    for (long t = start; t <= end; t += step) {
      for (Sample x : ((Vector) ENGINE.instantQuery(storage, parse(q), t).value()).samples()) {
        out.computeIfAbsent(x.labels(), k -> new ArrayList<>()).add(t + "=" + x.value());
      }
    }
    return out;
  }

  private static TreeMap<Labels, List<String>> byLabels(Matrix m) {
    TreeMap<Labels, List<String>> out = new TreeMap<>();
    for (TimeSeries s : m.series()) {
      List<String> points = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        points.add(s.timestampAt(i) + "=" + s.valueAt(i));
      }
      out.put(s.labels(), points);
    }
    return out;
  }

  private static dev.infermon.promql.parser.Expr parse(String q) {
    return PromqlParser.parse(q);
  }
}
