package dev.infermon.benchmarks.dashboard;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.ForwardingBackend;
import dev.infermon.promql.value.QueryResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The evaluator's side of the query stack, counted: every evaluation that reaches the engine (a
 * joined query or a cached step never does), its kind, and the thread CPU it took, by query text,
 * so that a load's cost can be read query by query.
 */
final class CountingBackend extends ForwardingBackend {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  /** One query text's evaluations: how many, their steps and their thread CPU. */
  static final class Cost {
    final LongAdder count = new LongAdder();
    final LongAdder steps = new LongAdder();
    final LongAdder cpuNanos = new LongAdder();
  }

  final LongAdder instant = new LongAdder();
  final LongAdder range = new LongAdder();
  final LongAdder seriesCalls = new LongAdder();
  final Map<String, Cost> byQuery = new ConcurrentHashMap<>();

  CountingBackend(QueryBackend delegate) {
    super(delegate);
  }

  void reset() {
    instant.reset();
    range.reset();
    seriesCalls.reset();
    byQuery.clear();
  }

  private <T> T timed(String key, long steps, Supplier<T> call) {
    long c0 = CPU.getCurrentThreadCpuTime();
    try {
      return call.get();
    } finally {
      Cost c = byQuery.computeIfAbsent(key, k -> new Cost());
      c.count.increment();
      c.steps.add(steps);
      c.cpuNanos.add(CPU.getCurrentThreadCpuTime() - c0);
    }
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    instant.increment();
    return timed(query, 1, () -> delegate.instantQuery(query, timeMs));
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    instant.increment();
    return timed(query, 1, () -> delegate.instantQuery(query, timeMs, timeout));
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    range.increment();
    return timed(
        query,
        (endMs - startMs) / stepMs + 1,
        () -> delegate.rangeQuery(query, startMs, endMs, stepMs));
  }

  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    range.increment();
    return timed(
        query,
        (endMs - startMs) / stepMs + 1,
        () -> delegate.rangeQuery(query, startMs, endMs, stepMs, timeout));
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    seriesCalls.increment();
    return timed(
        "series " + String.join(" ", selectors),
        0,
        () -> delegate.series(selectors, startMs, endMs));
  }
}
