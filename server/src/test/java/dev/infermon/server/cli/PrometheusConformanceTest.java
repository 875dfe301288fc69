package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.google.protobuf.CodedOutputStream;
import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.server.runtime.Infermon;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.xerial.snappy.Snappy;

/**
 * The same requests sent to the real Prometheus 2.42 ({@code /usr/bin/prometheus}, started here on
 * 127.0.0.1) and to {@code infermon serve}, both loaded with identical samples by remote write. The
 * JSON is compared: exactly (after ordering vector results by labels) where the answers must be the
 * same, by shape (field names and JSON types) where they legitimately differ (build info, flags,
 * config text, target details). Skips when Prometheus is not installed.
 */
class PrometheusConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The first sample's time, in seconds: a recent whole minute, so the head accepts it. */
  private static final long T = (System.currentTimeMillis() / 60_000 - 30) * 60;

  @TempDir static Path dir;
  private static PrometheusProcess prometheus;
  private static String promBase;
  private static Infermon infermon;
  private static String infermonBase;

  enum Mode {
    /** Same JSON; numbers in strings may differ in the last bits (2.42 vs 3 evaluation order). */
    EXACT,
    /** Same field names and JSON types. */
    SHAPE
  }

  /** Relative difference two sample values may have and still count as the same. */
  private static final double ULPS = 1e-12;

  record Case(String path, Mode mode) {
    @Override
    public String toString() {
      return mode + " " + path;
    }
  }

  @BeforeAll
  static void start() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(PrometheusProcess.PROMETHEUS),
        "Prometheus is not installed at " + PrometheusProcess.PROMETHEUS);
    String config =
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
            + "scrape_configs:\n  - job_name: down\n    static_configs:\n"
            + "      - targets: ['127.0.0.1:1']\n";
    prometheus =
        PrometheusProcess.start(
            config,
            dir.resolve("prom-data"),
            dir,
            Duration.ofSeconds(30),
            "--web.enable-remote-write-receiver");
    promBase = prometheus.base().toString();
    Path infCfg = dir.resolve("infermon.yml");
    // Without its default LLM alert pack, infermon has no rules, like this Prometheus.
    Files.writeString(infCfg, config + "llm:\n  alerts:\n    enabled: false\n");
    infermon =
        ServeTestSupport.serve(
                "--config.file=" + infCfg,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("infermon-data"),
                "--web.enable-remote-write-receiver")
            .infermon();
    infermonBase = "http://127.0.0.1:" + infermon.port();

    byte[] body = Snappy.compress(dataSet());
    for (String base : List.of(promBase, infermonBase)) {
      HttpResponse<String> r =
          ServeTestSupport.HTTP.send(
              HttpRequest.newBuilder(URI.create(base + "/api/v1/write"))
                  .header("Content-Type", "application/x-protobuf")
                  .header("Content-Encoding", "snappy")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(base + " " + r.body()).isEqualTo(204);
    }
    // Both have discovered the (unreachable) target before targets are compared.
    for (String base : List.of(promBase, infermonBase)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!get(base, "/api/v1/targets").body().contains("127.0.0.1:1")
          && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (infermon != null) {
      infermon.close();
    }
    if (prometheus != null) {
      prometheus.close();
    }
  }

  /** Gauges, counters and a classic histogram, 41 samples each, 15 s apart, from T. */
  private static byte[] dataSet() throws IOException {
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(req);
    int n = 41;
    long[] ts = new long[n];
    for (int i = 0; i < n; i++) {
      ts[i] = T * 1000 + i * 15_000L;
    }
    series(out, ts, i -> i * 1.5, "__name__", "conf_gauge", "instance", "a", "job", "conf");
    series(out, ts, i -> 100 - i * 0.1, "__name__", "conf_gauge", "instance", "b", "job", "conf");
    series(out, ts, i -> i * 10, "__name__", "conf_requests_total", "code", "200", "job", "conf");
    series(out, ts, i -> i, "__name__", "conf_requests_total", "code", "500", "job", "conf");
    series(out, ts, i -> i * 2, "__name__", "conf_hist_bucket", "job", "conf", "le", "0.1");
    series(out, ts, i -> i * 5, "__name__", "conf_hist_bucket", "job", "conf", "le", "0.5");
    series(out, ts, i -> i * 6, "__name__", "conf_hist_bucket", "job", "conf", "le", "+Inf");
    out.flush();
    return req.toByteArray();
  }

  private interface Value {
    double at(int i);
  }

  private static void series(CodedOutputStream out, long[] ts, Value v, String... labels)
      throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    CodedOutputStream c = CodedOutputStream.newInstance(buf);
    for (int i = 0; i < labels.length; i += 2) {
      ByteArrayOutputStream lb = new ByteArrayOutputStream();
      CodedOutputStream l = CodedOutputStream.newInstance(lb);
      l.writeString(1, labels[i]);
      l.writeString(2, labels[i + 1]);
      l.flush();
      c.writeByteArray(1, lb.toByteArray());
    }
    for (int i = 0; i < ts.length; i++) {
      ByteArrayOutputStream sb = new ByteArrayOutputStream();
      CodedOutputStream s = CodedOutputStream.newInstance(sb);
      s.writeDouble(1, v.at(i));
      s.writeInt64(2, ts[i]);
      s.flush();
      c.writeByteArray(2, sb.toByteArray());
    }
    c.flush();
    out.writeByteArray(1, buf.toByteArray());
  }

  private static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  static Stream<Case> cases() {
    long t = T + 600;
    String conf = q("{job=\"conf\"}");
    return Stream.of(
        // Grafana's data-source check
        new Case("/api/v1/query?query=" + q("1+1") + "&time=4", Mode.EXACT),
        new Case("/api/v1/query?query=" + q("\"hello\"") + "&time=" + t, Mode.EXACT),
        new Case("/api/v1/query?query=conf_gauge&time=" + t, Mode.EXACT),
        new Case("/api/v1/query?query=conf_gauge&time=" + t + ".5", Mode.EXACT),
        // off the sample grid: Prometheus 3 windows (infermon) are left-open, 2.42's closed
        new Case("/api/v1/query?query=" + q("conf_gauge[1m]") + "&time=" + (t + 7), Mode.EXACT),
        new Case(
            "/api/v1/query?query=" + q("rate(conf_requests_total[5m])") + "&time=" + t, Mode.EXACT),
        new Case(
            "/api/v1/query?query=" + q("sum by (job) (conf_requests_total)") + "&time=" + t,
            Mode.EXACT),
        new Case("/api/v1/query?query=" + q("conf_gauge / 0") + "&time=" + t, Mode.EXACT),
        new Case("/api/v1/query?query=" + q("-conf_gauge / 0") + "&time=" + t, Mode.EXACT),
        new Case("/api/v1/query?query=" + q("0 / 0") + "&time=" + t, Mode.EXACT),
        new Case("/api/v1/query?query=" + q("conf_gauge * 1e-9") + "&time=" + t, Mode.EXACT),
        new Case(
            "/api/v1/query?query="
                + q("histogram_quantile(0.9, rate(conf_hist_bucket[5m]))")
                + "&time="
                + t,
            Mode.EXACT),
        new Case(
            "/api/v1/query_range?query=conf_gauge&start=" + T + "&end=" + (T + 600) + "&step=60",
            Mode.EXACT),
        new Case(
            "/api/v1/query_range?query="
                + q("rate(conf_requests_total[2m])")
                + "&start="
                + T
                + "&end="
                + (T + 600)
                + "&step=37.5",
            Mode.EXACT),
        new Case("/api/v1/query?query=" + q("foo{"), Mode.EXACT),
        new Case("/api/v1/query?query=" + q("rate(1)"), Mode.EXACT),
        new Case("/api/v1/query?query=up&time=x", Mode.EXACT),
        new Case("/api/v1/query?query=up&timeout=x", Mode.EXACT),
        new Case("/api/v1/query_range?query=" + q("foo{") + "&start=1&end=2&step=1", Mode.EXACT),
        new Case("/api/v1/query_range?query=up&start=5&end=1&step=1", Mode.EXACT),
        new Case("/api/v1/query_range?query=up&start=1&end=5&step=0", Mode.EXACT),
        new Case("/api/v1/query_range?query=up&start=1&end=5&step=x", Mode.EXACT),
        new Case("/api/v1/query_range?query=up&start=x&end=5&step=1", Mode.EXACT),
        new Case("/api/v1/query_range?query=up&start=1&end=200000&step=1", Mode.EXACT),
        new Case("/api/v1/query_range?query=" + q("up[5m]") + "&start=1&end=2&step=1", Mode.EXACT),
        new Case("/api/v1/series?match[]=conf_gauge", Mode.EXACT),
        new Case(
            "/api/v1/series?match[]=conf_gauge&match[]=" + q("conf_requests_total{code=\"500\"}"),
            Mode.EXACT),
        new Case("/api/v1/series", Mode.EXACT),
        new Case("/api/v1/series?match[]=" + q("{a=\"\"}"), Mode.EXACT),
        new Case("/api/v1/series?match[]=" + q("up{"), Mode.EXACT),
        new Case("/api/v1/series?match[]=conf_gauge&start=x", Mode.EXACT),
        new Case("/api/v1/labels?match[]=" + conf, Mode.EXACT),
        new Case("/api/v1/labels?match[]=" + q("up{"), Mode.EXACT),
        new Case("/api/v1/label/le/values?match[]=" + conf, Mode.EXACT),
        new Case("/api/v1/label/__name__/values?match[]=" + conf, Mode.EXACT),
        new Case("/api/v1/label/a-b/values", Mode.EXACT),
        new Case("/api/v1/label/job/values?end=x", Mode.EXACT),
        new Case("/api/v1/metadata?metric=conf_gauge", Mode.EXACT),
        new Case("/api/v1/metadata?limit=x", Mode.EXACT),
        new Case("/api/v1/targets", Mode.SHAPE),
        new Case("/api/v1/targets?state=dropped", Mode.EXACT),
        new Case("/api/v1/rules", Mode.EXACT),
        new Case("/api/v1/rules?type=x", Mode.EXACT),
        new Case("/api/v1/alerts", Mode.EXACT),
        new Case("/api/v1/status/buildinfo", Mode.SHAPE),
        new Case("/api/v1/status/config", Mode.SHAPE),
        new Case("/api/v1/status/flags", Mode.SHAPE),
        new Case("/api/v1/format_query?query=" + q("sum(rate(foo[5m]))by(a)"), Mode.EXACT),
        new Case("/api/v1/format_query?query=" + q("sum("), Mode.EXACT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void answersLikePrometheus(Case c) throws Exception {
    HttpResponse<String> want = get(promBase, c.path());
    HttpResponse<String> got = get(infermonBase, c.path());
    assertThat(got.statusCode())
        .as("HTTP status; Prometheus said " + want.body())
        .isEqualTo(want.statusCode());
    JsonNode w = normalize(JSON.readTree(want.body()));
    JsonNode g = normalize(JSON.readTree(got.body()));
    List<String> diffs = new ArrayList<>();
    compare(w, g, "$", c.mode(), diffs);
    assertThat(diffs).as("Prometheus: %s%ninfermon:   %s", want.body(), got.body()).isEmpty();
  }

  /** A range of exactly 11,000 steps (11,001 points) is accepted by both; one more step is not. */
  @Test
  void elevenThousandStepsIsTheLimitOnBoth() throws Exception {
    String atLimit = "/api/v1/query_range?query=1&start=1&end=11001&step=1";
    assertThat(get(promBase, atLimit).statusCode()).isEqualTo(200);
    assertThat(get(infermonBase, atLimit).statusCode()).isEqualTo(200);
    String over = "/api/v1/query_range?query=1&start=1&end=11002&step=1";
    assertThat(get(promBase, over).statusCode()).isEqualTo(400);
    assertThat(get(infermonBase, over).statusCode()).isEqualTo(400);
  }

  @Test
  void remoteWriteOfAnOutOfOrderSampleIs400OnBoth() throws Exception {
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(req);
    series(
        out,
        new long[] {T * 1000},
        i -> 1,
        "__name__",
        "conf_gauge",
        "instance",
        "a",
        "job",
        "conf");
    out.flush();
    byte[] body = Snappy.compress(req.toByteArray());
    for (String base : List.of(promBase, infermonBase)) {
      HttpResponse<String> r =
          ServeTestSupport.HTTP.send(
              HttpRequest.newBuilder(URI.create(base + "/api/v1/write"))
                  .header("Content-Type", "application/x-protobuf")
                  .header("Content-Encoding", "snappy")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      // Prometheus 2.42 calls a rewrite of the same timestamp and another value a duplicate.
      assertThat(r.statusCode()).as(base + ": " + r.body()).isEqualTo(400);
    }
  }

  private static HttpResponse<String> get(String base, String path) throws Exception {
    return ServeTestSupport.HTTP.send(
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Orders instant-vector results by labels: neither server promises an order there. */
  private static JsonNode normalize(JsonNode n) {
    JsonNode result = n.at("/data/result");
    if (n.at("/data/resultType").asText().equals("vector") && result.isArray()) {
      List<JsonNode> items = new ArrayList<>();
      result.forEach(items::add);
      items.sort(Comparator.comparing(i -> i.get("metric").toString()));
      ArrayNode sorted = ((ArrayNode) result).removeAll();
      items.forEach(sorted::add);
    }
    return n;
  }

  private static void compare(
      JsonNode want, JsonNode got, String path, Mode mode, List<String> out) {
    if (want.getNodeType() != got.getNodeType()) {
      out.add(path + ": " + want.getNodeType() + " vs " + got.getNodeType());
      return;
    }
    if (want.isObject()) {
      List<String> wk = new ArrayList<>();
      want.fieldNames().forEachRemaining(wk::add);
      List<String> gk = new ArrayList<>();
      got.fieldNames().forEachRemaining(gk::add);
      boolean freeKeys =
          mode == Mode.SHAPE
              && (path.endsWith(".data") && want.has("config.file")
                  || path.endsWith("Labels")
                  || path.endsWith(".labels"));
      // "infos" is Prometheus 3's; 2.42 has no such field.
      if (path.equals("$")) {
        gk.remove("infos");
      }
      if (!freeKeys && !new java.util.TreeSet<>(wk).equals(new java.util.TreeSet<>(gk))) {
        out.add(path + ": fields " + wk + " vs " + gk);
        return;
      }
      for (Map.Entry<String, JsonNode> e : want.properties()) {
        if (got.has(e.getKey())) {
          compare(e.getValue(), got.get(e.getKey()), path + "." + e.getKey(), mode, out);
        }
      }
    } else if (want.isArray()) {
      if (want.size() != got.size()) {
        out.add(path + ": " + want.size() + " elements vs " + got.size());
        return;
      }
      for (int i = 0; i < want.size(); i++) {
        compare(want.get(i), got.get(i), path + "[" + i + "]", mode, out);
      }
    } else if (mode == Mode.EXACT && !want.equals(got) && !sameNumber(want, got)) {
      out.add(path + ": " + want + " vs " + got);
    }
  }

  private static boolean sameNumber(JsonNode want, JsonNode got) {
    if (!want.isTextual() || !got.isTextual()) {
      return false;
    }
    try {
      double w = Double.parseDouble(want.asText());
      double g = Double.parseDouble(got.asText());
      return Double.isFinite(w) && Math.abs(w - g) <= ULPS * Math.max(Math.abs(w), Math.abs(g));
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
