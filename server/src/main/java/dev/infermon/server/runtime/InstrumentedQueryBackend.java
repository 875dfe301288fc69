package dev.infermon.server.runtime;

import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.backend.ForwardingBackend;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Counts queries at the {@link QueryBackend} seam (the engine exposes no counters of its own):
 * queries by type and outcome, their duration, and the samples they returned. It sits on the
 * evaluating backend, under the query stack ({@link QueryEngine}), so it counts evaluations: a
 * query joined to one in flight is not counted again, a cached query counts as the evaluation of
 * its tail. Every caller of the stack — the HTTP API, the LLM layer, rules in remote mode — passes
 * through it; rules on the embedded TSDB run an engine of their own and are not counted.
 * Thread-safe.
 */
final class InstrumentedQueryBackend extends ForwardingBackend {
  /** The metrics, registered once and shared by every backend built after a reload. */
  static final class Metrics {
    final Counter queries;
    final Histogram duration;
    final Counter samples;

    Metrics(PrometheusRegistry registry) {
      queries =
          Counter.builder()
              .withoutExemplars()
              .name("infermon_engine_queries_total")
              .help("PromQL queries evaluated, by type (instant, range) and result.")
              .labelNames("type", "result")
              .register(registry);
      duration =
          Histogram.builder()
              .withoutExemplars()
              .name("infermon_engine_query_duration_seconds")
              .help("Time to evaluate PromQL queries, by type.")
              .labelNames("type")
              .classicOnly()
              .classicUpperBounds(0.001, 0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30, 120)
              .register(registry);
      samples =
          Counter.builder()
              .withoutExemplars()
              .name("infermon_engine_query_result_samples_total")
              .help("Samples returned by PromQL queries.")
              .register(registry);
    }
  }

  private final Metrics m;

  InstrumentedQueryBackend(QueryBackend delegate, Metrics metrics) {
    super(delegate);
    this.m = metrics;
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    return timed("instant", () -> delegate.instantQuery(query, timeMs));
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    return timed("range", () -> delegate.rangeQuery(query, startMs, endMs, stepMs));
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    return timed("instant", () -> delegate.instantQuery(query, timeMs, timeout));
  }

  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    return timed("range", () -> delegate.rangeQuery(query, startMs, endMs, stepMs, timeout));
  }

  private QueryResult timed(String type, Supplier<QueryResult> q) {
    long start = System.nanoTime();
    String result = "error";
    try {
      QueryResult r = q.get();
      result = "success";
      m.samples.inc(samples(r.value()));
      return r;
    } catch (QueryException e) {
      result = e.getClass().getSimpleName().replace("Exception", "");
      throw e;
    } finally {
      m.queries.labelValues(type, result).inc();
      m.duration.labelValues(type).observe((System.nanoTime() - start) / 1e9);
    }
  }

  private static long samples(Value v) {
    if (v instanceof Vector) {
      return ((Vector) v).samples().size();
    }
    if (v instanceof Matrix) {
      long n = 0;
      for (TimeSeries ts : ((Matrix) v).series()) {
        n += ts.size();
      }
      return n;
    }
    return 1;
  }
}
