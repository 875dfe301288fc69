package dev.infermon.web.api;

import dev.infermon.promql.QueryBackend;
import dev.infermon.web.BuildInfo;
import dev.infermon.web.http.Route;
import dev.infermon.web.http.Router;
import dev.infermon.web.retrieval.RulesRetriever;
import dev.infermon.web.retrieval.TargetRetriever;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The Prometheus HTTP API under {@code /api/v1}: registers each endpoint with the methods
 * Prometheus accepts and turns every failure into Prometheus's error envelope. Before the storage
 * is ready every endpoint answers 503 {@code Service Unavailable}, as Prometheus's do during WAL
 * replay.
 *
 * <p>Error mapping ({@link ApiErrors}, the web module's one, shared with the LLM API): parse errors
 * and invalid parameters are {@code bad_data} (400); evaluation failures {@code execution} (422,
 * too many samples included); a timeout {@code timeout} (503); a cancellation {@code canceled};
 * storage failures {@code internal} (500).
 */
public final class PrometheusApi {

  private final Backends backends;
  private final QueryApi query;
  private final SeriesApi series;
  private final StatusApi status;
  private final QueryGate gate;

  /**
   * @param queries the backend, null while not ready
   * @param maxConcurrentQueries {@code --query.max-concurrency}
   * @param queryTimeoutMs {@code --query.timeout}: also the longest a query waits for a slot
   */
  public PrometheusApi(
      Supplier<QueryBackend> queries,
      int maxConcurrentQueries,
      long queryTimeoutMs,
      BuildInfo buildInfo,
      Supplier<String> configYaml,
      Map<String, String> flags,
      TargetRetriever targets,
      RulesRetriever rules,
      LongSupplier nowMs) {
    this.backends = new Backends(queries);
    this.gate = new QueryGate(maxConcurrentQueries);
    this.query = new QueryApi(backends, gate, queryTimeoutMs, nowMs);
    this.series = new SeriesApi(backends);
    this.status = new StatusApi(buildInfo, configYaml, flags, targets, rules);
  }

  /** Whether the storage is ready (the query backend is bound). */
  public boolean ready() {
    return backends.ready();
  }

  /** Queries running now. */
  public int runningQueries() {
    return gate.running();
  }

  /** Queries waiting for a slot now. */
  public int waitingQueries() {
    return gate.waiting();
  }

  /** Adds every endpoint to {@code router}. */
  public void register(Router r) {
    String p = "/api/v1";
    r.add(p + "/query", api(query::instant), "GET", "POST");
    r.add(p + "/query_range", api(query::range), "GET", "POST");
    r.add(p + "/format_query", api(query::format), "GET", "POST");
    r.add(p + "/series", api(series::series), "GET", "POST");
    r.add(p + "/labels", api(series::labelNames), "GET", "POST");
    r.add(p + "/label/<name>/values", api(series::labelValues), "GET");
    r.add(p + "/metadata", api(series::metadata), "GET");
    r.add(p + "/targets", api(status::targets), "GET");
    r.add(p + "/rules", api(status::rules), "GET");
    r.add(p + "/alerts", api(status::alerts), "GET");
    r.add(p + "/status/buildinfo", api(status::buildInfo), "GET");
    r.add(p + "/status/config", api(status::config), "GET");
    r.add(p + "/status/flags", api(status::flags), "GET");
  }

  /** Prometheus's plain-text 503 before the storage is ready, then the shared error mapping. */
  private Route api(Route handler) {
    Route guarded = ApiErrors.guard(handler);
    return ex -> {
      if (!backends.ready()) {
        ex.respondText(503, "Service Unavailable");
        return;
      }
      guarded.handle(ex);
    };
  }
}
