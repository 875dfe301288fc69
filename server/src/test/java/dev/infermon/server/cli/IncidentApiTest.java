package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.server.demo.Demo;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code /api/v1/llm/incident} over {@code infermon demo}'s machinery: a small fleet in the
 * KV-pressure scenario with 30 minutes of backfilled history and the pack's {@code for} set to 0,
 * so the TTFT alert fires at the rules' first evaluation. The incident of the alert, named by the
 * labels {@code /api/v1/alerts} shows, is firing; its symptom is the rule's TTFT quantile above the
 * pack's 1 s; its timeline names KV pressure on the alert's model; its pods are that model's. An
 * alert that did not fire, a rule that is not loaded and a missing or bad {@code alert} are errors
 * naming what. Every wait is bounded.
 */
class IncidentApiTest {
  static final Duration WAIT = Duration.ofSeconds(60);
  static final String TTFT = "LLMTimeToFirstTokenHigh";

  @TempDir static Path dir;
  static Demo demo;
  static final HttpClient http = HttpClient.newHttpClient();
  static final ObjectMapper json = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    FleetConfig fleet =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .scenario(Scenario.KV_PRESSURE)
            .build();
    demo =
        Demo.start(
            new Demo.Options(fleet, List.of(), Duration.ofMinutes(30), Duration.ofSeconds(5)),
            (config, workDir) -> settings(config, workDir),
            "test",
            new PrintWriter(new StringWriter()));
  }

  @AfterAll
  static void stop() {
    if (demo != null) {
      demo.close();
    }
  }

  static ServeSettings settings(Path config, Path workDir) {
    try {
      Files.writeString(
          config,
          "llm:\n  alerts: {ttft_for: 0s, waiting_for: 0s, failure_for: 0s}\n",
          StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve)
        .parseArgs(
            "--config.file=" + config,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + workDir.resolve("data"));
    return serve.settings(System.getenv());
  }

  @Test
  void theFiringTtftAlertsIncidentHasItsSymptomKvPressureAndItsPods() throws Exception {
    JsonNode alert = firing(TTFT);
    Map<String, String> labels = labels(alert.get("labels"));
    HttpResponse<String> r = get("/api/v1/llm/incident?alert=" + enc(selector(labels)));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode d = json.readTree(r.body()).get("data");
    System.out.println("incident " + d);
    assertThat(d.get("state").asText()).isEqualTo("firing");
    assertThat(labels(d.get("alert"))).isEqualTo(labels);
    assertThat(d.get("start").asDouble())
        .as("the view starts 30 minutes before the firing")
        .isLessThanOrEqualTo(d.get("firingStart").asDouble() - 1800);

    JsonNode symptom = d.get("symptom");
    assertThat(symptom.get("labels").get("model_name").asText())
        .isEqualTo(labels.get("model_name"));
    double max = 0;
    for (JsonNode v : symptom.get("values")) {
      max = v.isNumber() ? Math.max(max, v.asDouble()) : max;
    }
    assertThat(max).as("the TTFT quantile of the alert, %s", symptom).isGreaterThan(1);

    List<String> states = new ArrayList<>();
    for (JsonNode c : d.get("timeline")) {
      states.add(c.get("state").asText());
      assertThat(c.get("to").asDouble()).isGreaterThanOrEqualTo(c.get("from").asDouble());
    }
    assertThat(states).as("%s", d.get("timeline")).contains("kv-pressure");
    JsonNode last = d.get("timeline").get(d.get("timeline").size() - 1);
    assertThat(last.get("cause").asText()).startsWith("kv-pressure on ");
    assertThat(last.get("evidence").get(0).asText()).contains(" = ");

    assertThat(d.get("pods").size()).isPositive();
    for (JsonNode p : d.get("pods")) {
      assertThat(p.get("model").asText()).isEqualTo(labels.get("model_name"));
      assertThat(p.get("namespace").asText()).isEqualTo(labels.get("namespace"));
    }
    assertThat(d.get("pods").findValuesAsText("pod")).contains(last.get("pod").asText());
  }

  @Test
  void whatCannotBeShownIsAnErrorNamingWhat() throws Exception {
    Map<String, String> labels = labels(firing(TTFT).get("labels"));
    labels.put("model_name", "no-such-model");
    HttpResponse<String> r = get("/api/v1/llm/incident?alert=" + enc(selector(labels)));
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.body()).contains("not_found").contains("did not fire within the lookback");

    r = get("/api/v1/llm/incident?alert=" + enc("NoSuchRule{namespace=\"inference\"}"));
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.body()).contains("no loaded alerting rule is named \\\"NoSuchRule\\\"");

    r = get("/api/v1/llm/incident");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("bad_data").contains("invalid parameter \\\"alert\\\"");

    r = get("/api/v1/llm/incident?alert=" + enc(TTFT + "{model_name=~\"a.*\"}"));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("invalid parameter \\\"alert\\\"").contains("with = only");

    r = get("/api/v1/llm/incident?alert=" + enc(selector(labels)) + "&lookback=30d");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("invalid parameter \\\"lookback\\\"");
  }

  /** The alert of that name once {@code /api/v1/alerts} shows it firing. */
  static JsonNode firing(String name) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      HttpResponse<String> r = get("/api/v1/alerts");
      if (r.statusCode() == 200) {
        for (JsonNode a : json.readTree(r.body()).path("data").path("alerts")) {
          if (name.equals(a.path("labels").path("alertname").asText())
              && a.path("state").asText().equals("firing")) {
            return a;
          }
        }
      }
      assertThat(System.nanoTime())
          .as(name + " firing in /api/v1/alerts; it holds " + r.body())
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  static Map<String, String> labels(JsonNode obj) {
    Map<String, String> out = new java.util.TreeMap<>();
    obj.fieldNames().forEachRemaining(k -> out.put(k, obj.get(k).asText()));
    return out;
  }

  /** {@code {alertname="...", ...}}. */
  static String selector(Map<String, String> labels) {
    List<String> parts = new ArrayList<>();
    labels.forEach(
        (k, v) -> parts.add(k + "=\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\""));
    return "{" + String.join(", ", parts) + "}";
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(demo.uiUrl().replaceAll("/$", "") + path))
            .timeout(Duration.ofSeconds(60))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
