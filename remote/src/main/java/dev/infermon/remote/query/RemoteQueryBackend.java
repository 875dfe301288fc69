package dev.infermon.remote.query;

import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link QueryBackend} over any Prometheus-compatible HTTP API (Prometheus, VictoriaMetrics,
 * Mimir, Thanos Query, Cortex): {@code /api/v1/query}, {@code query_range}, {@code series}, {@code
 * labels}, {@code label/<name>/values} and {@code metadata} under the configured base URL (for
 * Mimir that is {@code http://mimir/prometheus}). Queries are POSTed as forms, as Grafana does.
 *
 * <p>What the remote engine computes is returned as is: its PromQL dialect (MetricsQL for
 * VictoriaMetrics) decides the values, its annotations become the result's. Thread-safe; no state
 * beyond the HTTP client.
 */
public final class RemoteQueryBackend implements QueryBackend {
  /** Times beyond these are "unbounded": the parameter is left out and the remote uses its own. */
  private static final long UNBOUNDED = Long.MAX_VALUE / 2;

  private final ApiClient api;
  private final Duration timeout;

  /**
   * A backend over the API at {@code baseUrl} (without {@code /api/v1}).
   *
   * @param timeout how long one HTTP call may take
   * @param userAgent the {@code User-Agent} header, e.g. {@code infermon/0.1.0}
   */
  public RemoteQueryBackend(
      URI baseUrl, Duration timeout, HttpClientConfig http, String userAgent) {
    if (baseUrl == null || baseUrl.getScheme() == null || baseUrl.getHost() == null) {
      throw new IllegalArgumentException("remote query URL must be absolute: " + baseUrl);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("remote query timeout must be positive: " + timeout);
    }
    this.timeout = timeout;
    this.api = new ApiClient(baseUrl, timeout, http, userAgent);
  }

  /**
   * The backend of {@code storage.remote}.
   *
   * @throws IllegalArgumentException when {@code query_url} is not set
   */
  public static RemoteQueryBackend of(StorageConfig.Remote remote, String userAgent) {
    URI url =
        remote
            .queryUrl()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "storage.remote.query_url is required in remote mode"))
            .uri();
    return new RemoteQueryBackend(url, remote.timeout(), remote.httpClient(), userAgent);
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    return instantQuery(query, timeMs, timeout);
  }

  /**
   * As {@link #instantQuery(String, long)} in at most {@code timeout} (or the configured one when
   * that is shorter): the remote API is asked to stop there ({@code timeout=}), and the call is
   * abandoned there too, as a {@link dev.infermon.promql.QueryTimeoutException}.
   */
  @Override
  public QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    Duration t = shorter(timeout);
    List<Map.Entry<String, String>> form = new ArrayList<>();
    form.add(Map.entry("query", query));
    form.add(Map.entry("time", seconds(timeMs)));
    form.add(Map.entry("timeout", seconds(t.toMillis())));
    return Results.queryResult(api.post("/api/v1/query", form, t));
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    return rangeQuery(query, startMs, endMs, stepMs, timeout);
  }

  /** As {@link #instantQuery(String, long, Duration)}, for a range. */
  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    Duration t = shorter(timeout);
    if (stepMs <= 0) {
      throw new BadQueryException(
          "zero or negative query resolution step widths are not accepted. Try a positive"
              + " integer");
    }
    if (endMs < startMs) {
      throw new BadQueryException("end timestamp must not be before start time");
    }
    List<Map.Entry<String, String>> form = new ArrayList<>();
    form.add(Map.entry("query", query));
    form.add(Map.entry("start", seconds(startMs)));
    form.add(Map.entry("end", seconds(endMs)));
    form.add(Map.entry("step", seconds(stepMs)));
    form.add(Map.entry("timeout", seconds(t.toMillis())));
    return Results.queryResult(api.post("/api/v1/query_range", form, t));
  }

  /**
   * The shorter of {@code t} and the configured timeout; a caller's non-positive one is refused.
   */
  private Duration shorter(Duration t) {
    if (t == null || t.isNegative() || t.isZero()) {
      throw new IllegalArgumentException("query timeout must be positive: " + t);
    }
    return t.compareTo(timeout) < 0 ? t : timeout;
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    if (selectors.isEmpty()) {
      throw new BadQueryException("no match[] parameter provided");
    }
    return Results.labelSets(api.post("/api/v1/series", params(selectors, startMs, endMs)).data());
  }

  @Override
  public List<String> labelNames(List<String> selectors, long startMs, long endMs) {
    return Results.strings(api.post("/api/v1/labels", params(selectors, startMs, endMs)).data());
  }

  @Override
  public List<String> labelValues(String name, List<String> selectors, long startMs, long endMs) {
    if (name == null || name.isEmpty()) {
      throw new BadQueryException("invalid label name: \"\"");
    }
    String path =
        "/api/v1/label/"
            + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20")
            + "/values";
    return Results.strings(api.get(path, params(selectors, startMs, endMs)).data());
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    List<Map.Entry<String, String>> p = new ArrayList<>();
    if (metric != null) {
      p.add(Map.entry("metric", metric));
    }
    return Results.metadata(api.get("/api/v1/metadata", p).data());
  }

  private static List<Map.Entry<String, String>> params(
      List<String> selectors, long startMs, long endMs) {
    List<Map.Entry<String, String>> p = new ArrayList<>();
    for (String s : selectors) {
      p.add(Map.entry("match[]", s));
    }
    if (startMs > -UNBOUNDED) {
      p.add(Map.entry("start", seconds(startMs)));
    }
    if (endMs < UNBOUNDED) {
      p.add(Map.entry("end", seconds(endMs)));
    }
    return p;
  }

  /** Milliseconds as the API's float seconds, exactly ({@code 1.5}, {@code -0.001}). */
  static String seconds(long ms) {
    return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
  }

  @Override
  public String toString() {
    return "RemoteQueryBackend[" + api + "]";
  }
}
