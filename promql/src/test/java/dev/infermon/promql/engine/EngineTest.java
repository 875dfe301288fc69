package dev.infermon.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.QueryTimeoutException;
import dev.infermon.promql.TooManyPointsException;
import dev.infermon.promql.TooManySamplesException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The engine's semantics as a table of queries over small, hand-checked data. */
class EngineTest {
  private static final long S = 1000;
  private final MemoryStorage storage = new MemoryStorage();
  private final Engine engine = new Engine(EngineOptions.DEFAULTS);

  @BeforeEach
  void load() {
    Appender app = storage.appender();
    for (int i = 0; i <= 4; i++) {
      // A counter rising 1/s, scraped every 15 s.
      app.append(Labels.of("__name__", "c_total", "job", "a"), i * 15 * S, i * 15.0);
    }
    double[] reset = {0, 10, 20, 5, 15};
    for (int i = 0; i <= 4; i++) {
      app.append(Labels.of("__name__", "c_total", "job", "b"), i * 15 * S, reset[i]);
    }
    app.append(Labels.of("__name__", "g", "job", "a"), 0, 1);
    app.append(Labels.of("__name__", "g", "job", "a"), 10 * S, StaleNaN.VALUE);
    app.append(Labels.of("__name__", "gauge"), 0, 3);
    String[] le = {"0.1", "0.5", "+Inf"};
    double[] counts = {2, 8, 10};
    for (int i = 0; i < le.length; i++) {
      app.append(Labels.of("__name__", "lat_bucket", "le", le[i]), 0, counts[i]);
    }
    app.commit();
  }

  /** A query at a time and the samples it must return, by labels. */
  record Case(String query, long timeMs, Map<String, Double> expected) {
    @Override
    public String toString() {
      return query + " @" + timeMs;
    }
  }

  static Stream<Case> instantCases() {
    return Stream.of(
        // rate: 45 over (0, 60], extrapolated 15 s to the zero point: increase 60, rate 1/s.
        new Case("rate(c_total{job=\"a\"}[1m])", 60 * S, Map.of("{job=\"a\"}", 1.0)),
        new Case("increase(c_total{job=\"a\"}[1m])", 60 * S, Map.of("{job=\"a\"}", 60.0)),
        // A reset: 10,20,5,15 is an increase of 25 over 45 s, extrapolated by 60/45.
        new Case("increase(c_total{job=\"b\"}[1m])", 60 * S, Map.of("{job=\"b\"}", 100.0 / 3)),
        new Case("resets(c_total{job=\"b\"}[1m])", 60 * S, Map.of("{job=\"b\"}", 1.0)),
        new Case("irate(c_total{job=\"b\"}[1m])", 60 * S, Map.of("{job=\"b\"}", 10.0 / 15)),
        new Case("idelta(c_total{job=\"b\"}[1m])", 60 * S, Map.of("{job=\"b\"}", 10.0)),
        // The window is left-open: the sample at exactly t - 1m is out.
        new Case("count_over_time(c_total{job=\"a\"}[1m])", 60 * S, Map.of("{job=\"a\"}", 4.0)),
        // Lookback is left-open too: a sample exactly 5 m old is gone.
        new Case("gauge", 299_999, Map.of("gauge{}", 3.0)),
        new Case("gauge", 300 * S, Map.of()),
        // A staleness marker ends the series at once.
        new Case("g", 5 * S, Map.of("g{job=\"a\"}", 1.0)),
        new Case("g", 11 * S, Map.of()),
        // Buckets 2/8/10 with bounds 0.1/0.5/+Inf: rank 5 lies halfway through (0.1, 0.5].
        new Case("histogram_quantile(0.5, lat_bucket)", 0, Map.of("{}", 0.3)),
        new Case("histogram_quantile(0.99, lat_bucket)", 0, Map.of("{}", 0.5)),
        new Case(
            "sum by (job) (c_total)", 60 * S, Map.of("{job=\"a\"}", 60.0, "{job=\"b\"}", 15.0)),
        new Case(
            "c_total * on(job) group_left c_total",
            0,
            Map.of("{job=\"a\"}", 0.0, "{job=\"b\"}", 0.0)),
        new Case("topk(1, c_total)", 60 * S, Map.of("c_total{job=\"a\"}", 60.0)),
        new Case("absent(nope{job=\"x\"})", 0, Map.of("{job=\"x\"}", 1.0)),
        new Case("-gauge", 0, Map.of("{}", -3.0)));
  }

  @ParameterizedTest
  @MethodSource("instantCases")
  void instantQueries(Case c) {
    QueryResult r = engine.instantQuery(storage, PromqlParser.parse(c.query()), c.timeMs());
    Map<String, Double> got =
        ((Vector) r.value())
            .samples().stream()
                .collect(Collectors.toMap(s -> s.labels().toString(), Sample::value));
    assertThat(got.keySet()).isEqualTo(c.expected().keySet());
    c.expected().forEach((k, v) -> assertThat(got.get(k)).isCloseTo(v, within(1e-9)));
  }

  @Test
  void rangeQueryStepsAndSortsByLabels() {
    QueryResult r = engine.rangeQuery(storage, PromqlParser.parse("c_total"), 0, 60 * S, 30 * S);
    List<TimeSeries> series = ((Matrix) r.value()).series();
    assertThat(series).extracting(s -> s.labels().get("job")).containsExactly("a", "b");
    assertThat(series.get(0).size()).isEqualTo(3);
    assertThat(series.get(0).valueAt(2)).isEqualTo(60.0);
  }

  /**
   * {@code by} one label (grouped by that label's value alone) gives what grouping by it and a
   * label no series has (the general path) gives: the same groups, labels, values and order, with
   * the series that lack the label in one group with no labels.
   */
  @Test
  void groupingByOneLabelEqualsTheGeneralGrouping() {
    String in = "{__name__=~\"c_total|gauge|lat_bucket|g\"}";
    for (String op : List.of("sum", "count", "max", "stddev")) {
      List<Sample> one =
          ((Vector)
                  engine
                      .instantQuery(storage, PromqlParser.parse(op + " by (job) (" + in + ")"), 0)
                      .value())
              .samples();
      List<Sample> general =
          ((Vector)
                  engine
                      .instantQuery(
                          storage, PromqlParser.parse(op + " by (job, nope) (" + in + ")"), 0)
                      .value())
              .samples();

      assertThat(one).as(op).containsExactlyElementsOf(general);
      assertThat(one)
          .extracting(Sample::labels)
          .containsExactlyInAnyOrder(Labels.of("job", "a"), Labels.of("job", "b"), Labels.EMPTY);
    }
  }

  @Test
  void scalarQueriesReturnScalars() {
    QueryResult r = engine.instantQuery(storage, PromqlParser.parse("1 + 2 * 3"), 0);
    assertThat(r.value()).isEqualTo(new Scalar(0, 7));
  }

  @Test
  void rateOfNonCounterNameAddsInfo() {
    QueryResult r = engine.instantQuery(storage, PromqlParser.parse("rate(gauge[5m])"), 60 * S);
    assertThat(r.annotations().infos()).isEmpty(); // one sample: no result, no annotation
    Appender app = storage.appender();
    app.append(Labels.of("__name__", "gauge"), 30 * S, 4);
    app.commit();
    r = engine.instantQuery(storage, PromqlParser.parse("rate(gauge[5m])"), 60 * S);
    assertThat(r.annotations().infos())
        .containsExactly(
            "PromQL info: metric might not be a counter, name does not end in"
                + " _total/_sum/_count/_bucket: \"gauge\"");
  }

  @Test
  void manyToManyMatchingIsAnError() {
    assertThatThrownBy(
            () -> engine.instantQuery(storage, PromqlParser.parse("gauge + on() c_total"), 0))
        .isInstanceOf(QueryException.class)
        .hasMessageStartingWith("found duplicate series for the match group {} on the right");
  }

  @Test
  void limitsRaiseNamedErrors() {
    Engine tiny = new Engine(EngineOptions.DEFAULTS.withMaxSamples(2));
    assertThatThrownBy(() -> tiny.instantQuery(storage, PromqlParser.parse("c_total[1m]"), 60 * S))
        .isInstanceOf(TooManySamplesException.class);
    assertThatThrownBy(() -> engine.rangeQuery(storage, PromqlParser.parse("1"), 0, 11_001 * S, S))
        .isInstanceOf(TooManyPointsException.class);
    // exactly 11,000 steps (11,001 points) is still allowed, as in Prometheus
    assertThat(engine.rangeQuery(storage, PromqlParser.parse("1"), 0, 11_000 * S, S).value())
        .isNotNull();
    Engine hasty = new Engine(EngineOptions.DEFAULTS.withTimeout(Duration.ofNanos(1)));
    assertThatThrownBy(() -> hasty.instantQuery(storage, PromqlParser.parse("gauge"), 0))
        .isInstanceOf(QueryTimeoutException.class)
        .hasMessage("query timed out in expression evaluation");
  }

  @Test
  void canceledQueryStops() {
    AtomicBoolean canceled = new AtomicBoolean(true);
    assertThatThrownBy(() -> engine.instantQuery(storage, PromqlParser.parse("gauge"), 0, canceled))
        .hasMessage("query was canceled in expression evaluation");
  }
}
