package dev.infermon.remote.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.config.http.HttpClients;
import dev.infermon.config.http.RequestAuth;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.QueryCanceledException;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.QueryTimeoutException;
import dev.infermon.promql.TooManyPointsException;
import dev.infermon.promql.TooManySamplesException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Calls one Prometheus-compatible HTTP API and unwraps its JSON envelope ({@code status}, {@code
 * data}, {@code errorType}, {@code error}, {@code warnings}, {@code infos}), mapping its error
 * types to the promql exceptions: {@code bad_data} → {@link BadQueryException} (or {@link
 * TooManyPointsException}), {@code timeout} → {@link QueryTimeoutException}, {@code canceled} →
 * {@link QueryCanceledException}, {@code execution} → {@link QueryException} (or {@link
 * TooManySamplesException}), anything else and transport failures → {@link
 * RemoteUnavailableException}.
 *
 * <p>Thread-safe.
 */
final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TIMED_OUT = "query timed out in ";
  private static final String CANCELED = "query was canceled in ";
  private static final String TOO_MANY_SAMPLES =
      "query processing would load too many samples into memory in ";

  private final HttpClient client;
  private final String base;
  private final String shown;
  private final Duration timeout;
  private final RequestAuth auth;
  private final String userAgent;

  ApiClient(URI base, Duration timeout, HttpClientConfig http, String userAgent) {
    String b = base.toString();
    this.base = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
    this.shown =
        base.getRawUserInfo() == null
            ? this.base
            : this.base.replace(base.getRawUserInfo() + "@", "");
    this.client = HttpClients.create(http, null);
    this.timeout = timeout;
    this.auth = new RequestAuth(http);
    this.userAgent = userAgent;
  }

  /** The envelope of a successful call: {@code data} and the annotations. */
  record Answer(JsonNode data, List<String> warnings, List<String> infos) {}

  /** POSTs a form (what Grafana does for queries; keeps long selectors out of the URL). */
  Answer post(String path, List<Map.Entry<String, String>> form) {
    return post(path, form, timeout);
  }

  /** As {@link #post(String, List)}, abandoned after {@code callTimeout}. */
  Answer post(String path, List<Map.Entry<String, String>> form, Duration callTimeout) {
    HttpRequest req =
        request(path)
            .timeout(callTimeout)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(encode(form)))
            .build();
    return call(req);
  }

  /** GETs with query parameters. */
  Answer get(String path, List<Map.Entry<String, String>> params) {
    String q = encode(params);
    HttpRequest req = requestUri(path + (q.isEmpty() ? "" : "?" + q)).GET().build();
    return call(req);
  }

  private HttpRequest.Builder request(String path) {
    return requestUri(path);
  }

  private HttpRequest.Builder requestUri(String pathAndQuery) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + pathAndQuery))
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("User-Agent", userAgent);
    for (Map.Entry<String, String> h : auth.get().entrySet()) {
      b.setHeader(h.getKey(), h.getValue());
    }
    return b;
  }

  private Answer call(HttpRequest req) {
    HttpResponse<byte[]> r;
    try {
      r = client.send(req, HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpTimeoutException e) {
      // the caller's time is up: a timeout as the engine's, not an unavailable remote
      throw new QueryTimeoutException(
          "remote query to "
              + shown
              + " after "
              + req.timeout().orElse(timeout).toMillis()
              + " ms");
    } catch (IOException e) {
      throw new RemoteUnavailableException(
          "remote query API "
              + shown
              + " unreachable: "
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryCanceledException("remote query to " + shown);
    }
    JsonNode root;
    try {
      root = JSON.readTree(r.body());
    } catch (IOException e) {
      root = null;
    }
    if (root == null || !root.isObject() || !root.has("status")) {
      String body = new String(r.body(), StandardCharsets.UTF_8);
      throw new RemoteUnavailableException(
          "remote query API "
              + shown
              + " answered HTTP "
              + r.statusCode()
              + " without the API's JSON: "
              + body.substring(0, Math.min(body.length(), 200)).trim());
    }
    if (!"success".equals(root.path("status").asText())) {
      throw error(root.path("errorType").asText(""), root.path("error").asText(""));
    }
    return new Answer(
        root.path("data"), strings(root.path("warnings")), strings(root.path("infos")));
  }

  /** The exception for an error envelope, by Prometheus's error type. */
  static QueryException error(String type, String message) {
    switch (type) {
      case "bad_data":
        if (message.startsWith("exceeded maximum resolution of 11,000 points")) {
          return new TooManyPointsException();
        }
        return new BadQueryException(message);
      case "timeout":
        return new QueryTimeoutException(strip(message, TIMED_OUT));
      case "canceled":
        return new QueryCanceledException(strip(message, CANCELED));
      case "execution":
        if (message.startsWith(TOO_MANY_SAMPLES)) {
          return new TooManySamplesException(strip(message, TOO_MANY_SAMPLES));
        }
        return new QueryException(message);
      default:
        return new RemoteUnavailableException(
            "remote query API error" + (type.isEmpty() ? "" : " (" + type + ")") + ": " + message);
    }
  }

  private static String strip(String message, String prefix) {
    return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }

  private static List<String> strings(JsonNode array) {
    if (!array.isArray()) {
      return List.of();
    }
    List<String> out = new java.util.ArrayList<>();
    for (JsonNode n : array) {
      out.add(n.asText());
    }
    return out;
  }

  private static String encode(List<Map.Entry<String, String>> params) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : params) {
      if (sb.length() > 0) {
        sb.append('&');
      }
      sb.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "ApiClient[" + shown + "]";
  }
}
