package dev.infermon.promql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.CountingStorage;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A scope's evaluations answer as the backend's own while samples and series are appended between
 * them (after the part it shares), and read fewer samples: the final part of a selector's series is
 * read once for all the scope's queries that select it. Through the whole query stack too, whose
 * decorators pass the scope down to the evaluator.
 */
class QueryScopeTest {
  private static final long T0 = 1_700_000_000_000L;
  private static final long STEP = 15_000;
  private static final long HOURS2 = 2 * 3_600_000L;
  private static final long BOUND = T0 + HOURS2 - 1_800_000L; // the appendable window's start
  private static final long START = T0 + 600_000; // the load's window: to 10 minutes past the data
  private static final long END = T0 + HOURS2 + 600_000;

  /** Dashboard-like queries: several read each selector, as a load's panels do. */
  private static final List<String> QUERIES =
      List.of(
          "sum by (pod) (running)",
          "avg(running)",
          "max by (pod) (running) > 0",
          "histogram_quantile(0.9, sum by (le) (rate(latency_bucket[5m])))",
          "histogram_quantile(0.9, sum by (le, pod) (rate(latency_bucket[5m])))",
          "sum(rate(latency_bucket[5m])) / count(running)",
          "count(running) or vector(0)");

  private final MemoryStorage memory = new MemoryStorage();
  private final CountingStorage counting = new CountingStorage(memory);
  private final EmbeddedQueryBackend backend =
      new EmbeddedQueryBackend(counting, new Engine(EngineOptions.DEFAULTS), () -> BOUND);
  private long end = T0 + HOURS2;

  QueryScopeTest() {
    for (long t = T0; t < end; t += STEP) {
      append(t, "a", "b");
    }
  }

  @Test
  void answersAsTheBackendWhileSamplesAndSeriesAreAppendedBetweenItsQueries() {
    long plain = 0;
    long scoped = 0;
    try (QueryScope scope = backend.scope(QUERIES)) {
      for (int i = 0; i < QUERIES.size(); i++) {
        // a scrape between two panels' queries, with a pod that appears during the load
        append(end, "a", "b", "c");
        end += STEP;
        String q = QUERIES.get(i);
        long s0 = counting.samples.sum();
        QueryResult got = scope.backend().rangeQuery(q, START, END, 60_000);
        long s1 = counting.samples.sum();
        QueryResult want = backend.rangeQuery(q, START, END, 60_000);
        scoped += s1 - s0;
        plain += counting.samples.sum() - s1;
        assertThat(text(got)).as(q).isEqualTo(text(want));
        assertThat(((Matrix) got.value()).series()).as(q).isNotEmpty();
      }
    }
    System.out.printf("samples read: %d in the scope, %d without%n", scoped, plain);
    // the final 75 of each select's 115 minutes are read once, and each selector is read by 2-5
    // of the queries: about half as many samples
    assertThat(scoped).isLessThan(plain * 7 / 10);
  }

  @Test
  void theQueryStackPassesTheScopeToTheEvaluator() {
    long[] read = new long[2];
    for (int scoped = 0; scoped < 2; scoped++) {
      QueryBackend stack = QueryStack.of(backend);
      long s0 = counting.samples.sum();
      try (QueryScope scope = scoped == 1 ? stack.scope(QUERIES) : QueryScope.none(stack)) {
        for (String q : QUERIES) {
          scope.backend().rangeQueryAsync(q, START, END, 60_000).join();
        }
      }
      read[scoped] = counting.samples.sum() - s0;
    }
    assertThat(read[1]).isLessThan(read[0] * 7 / 10);
  }

  @Test
  void aBackendThatCannotTellWhatIsFinalSharesNothing() {
    EmbeddedQueryBackend unbounded =
        new EmbeddedQueryBackend(counting, new Engine(EngineOptions.DEFAULTS));
    try (QueryScope scope = unbounded.scope(QUERIES)) {
      assertThat(scope.backend()).isSameAs(unbounded);
    }
  }

  @Test
  void selectorsCountTheSelectsOfEachMatcherSet() {
    Map<List<Matcher>, Integer> got =
        EmbeddedQueryBackend.selectors(
            List.of("a + a offset 5m", "rate(b{x=\"1\"}[5m])", "max_over_time(a[1h:5m])", "(("));
    assertThat(got)
        .containsOnly(
            Map.entry(List.of(Matcher.metricName("a")), 3),
            Map.entry(List.of(Matcher.equal("x", "1"), Matcher.metricName("b")), 1));
  }

  private void append(long t, String... pods) {
    Appender app = memory.appender();
    double k = (t - T0) / STEP;
    for (String pod : pods) {
      app.append(Labels.of("__name__", "running", "pod", pod), t, (k + pod.charAt(0)) % 7);
      for (String le : List.of("0.1", "1", "+Inf")) {
        app.append(
            Labels.of("__name__", "latency_bucket", "pod", pod, "le", le),
            t,
            k * (le.length() + pod.charAt(0) % 3));
      }
    }
    app.commit();
  }

  /** The result's series with every value's bits: equal only when the answers are. */
  private static String text(QueryResult r) {
    StringBuilder sb = new StringBuilder(r.annotations().toString());
    for (TimeSeries s : ((Matrix) r.value()).series()) {
      sb.append('\n').append(s.labels());
      for (int i = 0; i < s.size(); i++) {
        sb.append(' ')
            .append(s.timestampAt(i))
            .append('=')
            .append(Long.toHexString(Double.doubleToRawLongBits(s.valueAt(i))));
      }
    }
    return sb.toString();
  }
}
