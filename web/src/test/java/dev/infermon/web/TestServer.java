package dev.infermon.web;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import dev.infermon.tsdb.Tsdb;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * A {@link WebServer} on 127.0.0.1 and a free port over a real {@link Tsdb} in a temporary
 * directory, with an HTTP client. For tests; closes both.
 */
public final class TestServer implements AutoCloseable {
  public final Tsdb tsdb;
  public final WebServer server;
  public final HttpClient client;
  public final AtomicReference<QueryBackend> backend = new AtomicReference<>();

  private TestServer(Tsdb tsdb, WebServer server, HttpClient client) {
    this.tsdb = tsdb;
    this.server = server;
    this.client = client;
  }

  public static TestServer start(Path dir, EngineOptions engine, UnaryOperator<WebOptions> opts)
      throws IOException {
    return start(dir, engine, opts, b -> b);
  }

  public static TestServer start(
      Path dir,
      EngineOptions engine,
      UnaryOperator<WebOptions> opts,
      UnaryOperator<WebServices.Builder> services)
      throws IOException {
    Tsdb tsdb = Tsdb.open(dir.resolve("data"));
    AtomicReference<QueryBackend> ref = new AtomicReference<>();
    ref.set(new EmbeddedQueryBackend(tsdb, new Engine(engine)));
    WebServices.Builder b =
        WebServices.builder()
            .queries(ref::get)
            .appendable(() -> tsdb)
            .configYaml(() -> "global:\n  scrape_interval: 15s\n")
            .flags(java.util.Map.of("query.timeout", "2m"))
            .buildInfo(BuildInfo.forInfermon("0.1.0-test"));
    WebServer server =
        WebServer.start(opts.apply(WebOptions.defaults("127.0.0.1:0")), services.apply(b).build());
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    TestServer t = new TestServer(tsdb, server, client);
    t.backend.set(ref.get());
    return t;
  }

  /** Appends one sample per (labels, t, v) triple and commits. */
  public void load(Object... labelsTimeValue) {
    Appender a = tsdb.appender();
    for (int i = 0; i < labelsTimeValue.length; i += 3) {
      a.append(
          (Labels) labelsTimeValue[i],
          ((Number) labelsTimeValue[i + 1]).longValue(),
          ((Number) labelsTimeValue[i + 2]).doubleValue());
    }
    a.commit();
  }

  public URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
  }

  public HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> postForm(String path, String... keyValues)
      throws IOException, InterruptedException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < keyValues.length; i += 2) {
      if (sb.length() > 0) {
        sb.append('&');
      }
      sb.append(URLEncoder.encode(keyValues[i], StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(keyValues[i + 1], StandardCharsets.UTF_8));
    }
    return client.send(
        HttpRequest.newBuilder(uri(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(sb.toString()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> post(String path, byte[] body, String contentType)
      throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(uri(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A POST with these headers (name, value, ...) and no others. */
  public HttpResponse<String> postWithHeaders(String path, byte[] body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(path))
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** URL-encodes a query value. */
  public static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    server.close();
    tsdb.close();
  }
}
