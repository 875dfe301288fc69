package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.infermon.server.demo.Demo;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The default alerts reach the real Alertmanager ({@code /usr/bin/prometheus-alertmanager}, Debian
 * 0.25, clustering off) with their cause, for every simulator scenario that fires one: the rows of
 * llm's {@code alert-causes.csv} ({@code AlertCauseScenariosTest} checks the same rows in process).
 * One {@code infermon demo} fleet serves one model per row (two vLLM pods and one SGLang pod each),
 * every pod of a model in its row's scenario for the whole 20 minutes of backfilled history; the
 * demo's generated configuration is extended with the Alertmanager and the pack's {@code for} set
 * to 0 (so the backfilled history fires the alerts at the first evaluation instead of after 10 to
 * 15 minutes of wall time). For every row, what Alertmanager's {@code /api/v2/alerts} then holds
 * for the row's alerts on its model (its first alert always, the others when infermon has them
 * firing) names the row's cause, with evidence, and the dashboard, incident and generator links
 * under {@code --web.external-url} (a reverse proxy's URL with a path), and Alertmanager's webhook
 * receiver is notified with them; infermon's own webhook ({@code alerting.webhooks}, with a bearer
 * token) receives every one of those alerts too, with the same cause, evidence and links, straight
 * from infermon ({@link #checkWebhook}); infermon serves the incident page at the link's path, and
 * its data names the same cause last. A rule file of the user's own, per pod on an engine metric,
 * gets its cause too ({@link #checkOwnRule}). Skipped without the binary; every wait is bounded.
 */
class AlertCauseAlertmanagerTest {
  static final Path BINARY = Path.of("/usr/bin/prometheus-alertmanager");
  static final Duration WAIT = Duration.ofSeconds(40);
  static final String PROXY = "https://proxy.example.com/infermon";

  /** The alert of a rule file of the user's own, on the waiting requests of one model's pods. */
  static final String OWN_ALERT = "PodQueueLong";

  static final String OWN_MODEL = "scenario/kv-pressure";

  /** Every alert of every row: the first evaluation after the backfill, and a resend. */
  static final Duration ALERTS_WAIT = Duration.ofSeconds(90);

  /** llm's table of scenarios, alerts and causes (the module's directory is the working one). */
  static final Path TABLE =
      Path.of("..", "llm", "src", "test", "resources", "dev", "infermon", "llm", "diagnosis")
          .resolve("alert-causes.csv");

  @TempDir Path dir;
  private Process am;
  private HttpServer hook;

  /** The alerts of every notification Alertmanager's webhook receiver posted. */
  private final List<JsonNode> notified = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** The alerts infermon posted to its own webhook ({@code alerting.webhooks}). */
  private final List<JsonNode> direct = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** The {@code Authorization} header of every post to infermon's own webhook. */
  private final Set<String> directAuth = java.util.concurrent.ConcurrentHashMap.newKeySet();

  static final String HOOK_TOKEN = "hook-secret";

  private int amPort;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  @BeforeEach
  void startAlertmanager() throws Exception {
    assumeTrue(Files.isExecutable(BINARY), "Alertmanager is not installed at " + BINARY);
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      amPort = s.getLocalPort();
    }
    // Alertmanager's own webhook receiver notifies a loopback server: what a chat or pager
    // integration gets (group_wait 1s: the first notification of a group at once)
    hook = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
    hook.createContext(
        "/hook",
        ex -> {
          try (ex) {
            JsonNode body = json.readTree(ex.getRequestBody());
            body.path("alerts").forEach(notified::add);
            ex.sendResponseHeaders(200, -1);
          }
        });
    // infermon's own webhook: the same JSON list of alerts as Alertmanager's API, no Alertmanager
    hook.createContext(
        "/direct",
        ex -> {
          try (ex) {
            json.readTree(ex.getRequestBody()).forEach(direct::add);
            directAuth.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            ex.sendResponseHeaders(200, -1);
          }
        });
    hook.start();
    Files.writeString(
        dir.resolve("am.yml"),
        "route:\n"
            + "  receiver: hook\n"
            + "  group_by: [alertname, model_name, pod]\n"
            + "  group_wait: 1s\n"
            + "receivers:\n"
            + "  - name: hook\n"
            + "    webhook_configs:\n"
            + "      - url: http://127.0.0.1:"
            + hook.getAddress().getPort()
            + "/hook\n");
    am =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + dir.resolve("am.yml"),
                "--storage.path=" + dir.resolve("am-data"),
                "--web.listen-address=127.0.0.1:" + amPort,
                "--cluster.listen-address=")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("am.log").toFile())
            .start();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!ready()) {
      assertThat(System.nanoTime()).as("Alertmanager ready").isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private boolean ready() {
    try {
      return get("/-/ready").statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }

  @AfterEach
  void stopAlertmanager() throws InterruptedException {
    if (hook != null) {
      hook.stop(0);
    }
    if (am != null) {
      am.destroy();
      if (!am.waitFor(10, TimeUnit.SECONDS)) {
        am.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * One row of the table: a scenario, the alerts it fires (the first one always), the alerts it may
   * fire (marked {@code ?} in the table: timing-dependent, the table says why), the cause they
   * name.
   */
  record Row(Scenario scenario, List<String> alerts, Set<String> optional, String cause) {
    /** The model the row's pods serve: the 8B profile under the scenario's name. */
    String model() {
      return "scenario/" + scenario.cliName();
    }
  }

  /** The rows of llm's table, which its {@code AlertCauseScenariosTest} reads too. */
  static List<Row> rows() throws java.io.IOException {
    List<Row> rows = new ArrayList<>();
    for (String line : Files.readAllLines(TABLE)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] cols = line.split("\\|");
      assertThat(cols).as(line).hasSize(3);
      List<String> alerts = new ArrayList<>();
      Set<String> optional = new HashSet<>();
      for (String a : cols[1].trim().split("\\s+")) {
        if (a.endsWith("?")) {
          optional.add(a.substring(0, a.length() - 1));
        } else {
          alerts.add(a);
        }
      }
      rows.add(new Row(Scenario.fromCliName(cols[0].trim()), alerts, optional, cols[2].trim()));
    }
    return rows;
  }

  @Test
  void everyScenariosAlertsArriveWithTheScenariosCause() throws Exception {
    List<Row> rows = rows();
    assertThat(rows).as(TABLE.toString()).hasSizeGreaterThanOrEqualTo(6);
    Map<String, Scenario> scenarios = new LinkedHashMap<>();
    rows.forEach(r -> scenarios.put(r.model(), r.scenario()));
    FleetConfig fleet =
        FleetConfig.builder()
            .vllmPods(2 * rows.size())
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(rows.size())
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.copyOf(scenarios.keySet()))
            .build();
    String extra =
        "alerting:\n"
            + "  alertmanagers:\n"
            + "    - static_configs:\n"
            + "        - targets: ['127.0.0.1:"
            + amPort
            + "']\n"
            + "  webhooks:\n"
            + "    - url: http://127.0.0.1:"
            + hook.getAddress().getPort()
            + "/direct\n"
            + "      timeout: 5s\n"
            + "      authorization: {credentials: "
            + HOOK_TOKEN
            + "}\n"
            + "llm:\n"
            + "  alerts: {ttft_for: 0s, waiting_for: 0s, failure_for: 0s}\n"
            + "rule_files: ['"
            + ownRules()
            + "']\n";
    Demo demo =
        Demo.start(
            new Demo.Options(fleet, List.of(), Duration.ofMinutes(20), Duration.ofSeconds(15)),
            f -> {
              // models are assigned round-robin: every pod of a model goes into its row's scenario
              for (PodInfo p : f.inventory()) {
                Scenario s = scenarios.get(p.model());
                if (s != null) {
                  f.setScenario(s, p.name());
                }
              }
            },
            (config, workDir) -> settings(config, workDir, extra),
            "test",
            new PrintWriter(new StringWriter()));
    try {
      Map<List<String>, JsonNode> received = waitForAlerts(demo, rows);
      Set<List<String>> firing = firingInInfermon(demo);
      Map<Row, Set<String>> firedByRow = new LinkedHashMap<>();
      for (Row row : rows) {
        Set<String> fired = new java.util.TreeSet<>();
        firing.stream()
            .filter(k -> k.get(1).equals(row.model()) && !k.get(0).equals(OWN_ALERT))
            .forEach(k -> fired.add(k.get(0)));
        firedByRow.put(row, fired);
      }
      System.out.println("firing by scenario: " + firedByRow);
      printReceived(rows, received);
      for (Row row : rows) {
        // no alert of the pack fires beyond the row's: each is true of the scenario
        Set<String> fired = firedByRow.get(row);
        assertThat(fired).as(row.scenario() + ": firing").containsAll(row.alerts());
        Set<String> allowed = new HashSet<>(row.alerts());
        allowed.addAll(row.optional());
        assertThat(allowed).as(row.scenario() + ": firing beyond the row").containsAll(fired);
        // the optional alerts' cause may be another state (the queue's timeouts are errors-rising)
        for (String name : row.alerts()) {
          JsonNode a = received.get(List.of(name, row.model()));
          if (a != null) {
            checkAlert(demo, row, a);
          }
        }
      }
      checkOwnRule(demo);
      checkNotified(rows);
      checkWebhook(rows, received);
    } finally {
      demo.close();
    }
  }

  /** The annotations Alertmanager holds for one of a row's alerts, and its incident in infermon. */
  private void checkAlert(Demo demo, Row row, JsonNode a) throws Exception {
    JsonNode ann = a.get("annotations");
    String what = row.scenario() + ": " + a;
    assertThat(ann.path("cause").asText()).as(what).startsWith(row.cause() + " on ");
    assertThat(ann.path("cause_evidence").asText()).as(what).contains(" = ").contains(" at ");
    assertThat(ann.path("dashboard_url").asText())
        .as("under --web.external-url")
        .startsWith(
            PROXY
                + "/dashboard?namespace=inference&model="
                + URLEncoder.encode(row.model(), StandardCharsets.UTF_8))
        .contains("&from=")
        .contains("&to=");
    // the earlier of the alert's start and 30 minutes before the evaluation: the alert is younger
    java.util.regex.Matcher range =
        java.util.regex.Pattern.compile("&from=(\\d+)&to=(\\d+)$")
            .matcher(ann.path("dashboard_url").asText());
    assertThat(range.find()).as(what).isTrue();
    assertThat(Long.parseLong(range.group(2)) - Long.parseLong(range.group(1)))
        .as("the dashboard's range: " + what)
        .isEqualTo(Duration.ofMinutes(30).toMillis());
    assertThat(a.path("generatorURL").asText()).startsWith(PROXY + "/graph?g0.expr=");
    assertThat(ann.path("summary").asText()).as("the rule's own annotations stay").isNotEmpty();
    assertThat(ann.has("cause_error")).as(what).isFalse();
    // the incident page, under the proxy's URL; infermon serves the page and its data at the
    // path the proxy strips
    String incident = ann.path("incident_url").asText();
    assertThat(incident).startsWith(PROXY + "/incident?alert=");
    String path = incident.substring(PROXY.length());
    HttpResponse<String> page = getFrom(demo.uiUrl(), path);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("/ui/app.js");
    String alert = path.substring("/incident?alert=".length());
    HttpResponse<String> data = getFrom(demo.uiUrl(), "/api/v1/llm/incident?alert=" + alert);
    assertThat(data.statusCode()).as(data.body()).isEqualTo(200);
    JsonNode d = json.readTree(data.body()).path("data");
    assertThat(d.at("/alert/alertname").asText())
        .isEqualTo(a.path("labels").path("alertname").asText());
    assertThat(d.at("/alert/model_name").asText()).isEqualTo(row.model());
    JsonNode timeline = d.path("timeline");
    assertThat(timeline.size()).as("the incident's timeline: " + d).isPositive();
    assertThat(timeline.get(timeline.size() - 1).path("state").asText())
        .as("the cause the incident names last: " + timeline)
        .isEqualTo(row.cause());
  }

  /**
   * Alertmanager's notifications carry the cause on: its webhook receiver posts each row's first
   * alert with the row's cause and evidence, as it holds them.
   */
  private void checkNotified(List<Row> rows) throws Exception {
    long deadline = System.nanoTime() + ALERTS_WAIT.toNanos();
    for (Row row : rows) {
      String name = row.alerts().get(0);
      while (true) {
        JsonNode got = null;
        for (JsonNode a : notified) {
          if (a.at("/labels/alertname").asText().equals(name)
              && a.at("/labels/model_name").asText().equals(row.model())) {
            got = a;
          }
        }
        if (got != null) {
          String what = "notified: " + got;
          assertThat(got.at("/annotations/cause").asText())
              .as(what)
              .startsWith(row.cause() + " on ");
          assertThat(got.at("/annotations/cause_evidence").asText()).as(what).contains(" = ");
          assertThat(got.at("/annotations/incident_url").asText()).startsWith(PROXY + "/incident?");
          break;
        }
        assertThat(System.nanoTime())
            .as("a webhook notification of " + name + " on " + row.model())
            .isLessThan(deadline);
        Thread.sleep(500);
      }
    }
  }

  /**
   * infermon's own webhook gets what Alertmanager got: every alert Alertmanager holds with a cause
   * arrives there with the same labels, and each row's first alert with the row's cause, evidence
   * and dashboard link, posted with the configured bearer token.
   */
  private void checkWebhook(List<Row> rows, Map<List<String>, JsonNode> atAlertmanager)
      throws Exception {
    long deadline = System.nanoTime() + ALERTS_WAIT.toNanos();
    for (JsonNode held : atAlertmanager.values()) {
      while (directWith(held.get("labels")) == null) {
        assertThat(System.nanoTime())
            .as("infermon's webhook got " + held.get("labels") + "; it has " + direct.size())
            .isLessThan(deadline);
        Thread.sleep(500);
      }
    }
    for (Row row : rows) {
      JsonNode a =
          directWith(atAlertmanager.get(List.of(row.alerts().get(0), row.model())).get("labels"));
      String what = "posted to infermon's webhook: " + a;
      System.out.println(
          "received by infermon's webhook, "
              + row.scenario().cliName()
              + ": "
              + json.writeValueAsString(a));
      JsonNode ann = a.get("annotations");
      assertThat(ann.path("cause").asText()).as(what).startsWith(row.cause() + " on ");
      assertThat(ann.path("cause_evidence").asText()).as(what).contains(" = ").contains(" at ");
      assertThat(ann.path("dashboard_url").asText())
          .as(what)
          .startsWith(
              PROXY
                  + "/dashboard?namespace=inference&model="
                  + URLEncoder.encode(row.model(), StandardCharsets.UTF_8))
          .contains("&from=")
          .contains("&to=");
      assertThat(ann.path("incident_url").asText()).as(what).startsWith(PROXY + "/incident?");
      assertThat(a.path("generatorURL").asText()).as(what).startsWith(PROXY + "/graph?g0.expr=");
    }
    assertThat(directAuth).containsExactly("Bearer " + HOOK_TOKEN);
  }

  /** The last alert posted to infermon's webhook with exactly these labels and a cause, or null. */
  private JsonNode directWith(JsonNode labels) {
    JsonNode got = null;
    for (JsonNode a : direct) {
      if (a.get("labels").equals(labels) && a.path("annotations").has("cause")) {
        got = a;
      }
    }
    return got;
  }

  /** A rule of the user's own over an engine metric, per pod: {@link #OWN_ALERT}. */
  private Path ownRules() throws java.io.IOException {
    Path f = dir.resolve("own-rules.yml");
    Files.writeString(
        f,
        "groups:\n"
            + "  - name: own\n"
            + "    rules:\n"
            + "      - alert: "
            + OWN_ALERT
            + "\n"
            + "        expr: vllm:num_requests_waiting{model_name=\""
            + OWN_MODEL
            + "\"} > 5\n"
            + "        labels: {severity: page}\n"
            + "        annotations: {summary: '{{ $labels.pod }} queues'}\n");
    return f;
  }

  /**
   * An alert of the user's own rule on an engine metric (not the pack's) arrives with a cause too:
   * per pod, the finding on that pod (the KV pressure its vLLM pods are in), with the dashboard at
   * the pod level of the pod's model.
   */
  private void checkOwnRule(Demo demo) throws Exception {
    long deadline = System.nanoTime() + ALERTS_WAIT.toNanos();
    List<JsonNode> own = new ArrayList<>();
    while (own.isEmpty()) {
      HttpResponse<String> r = get("/api/v2/alerts");
      if (r.statusCode() == 200) {
        for (JsonNode a : json.readTree(r.body())) {
          if (a.at("/labels/alertname").asText().equals(OWN_ALERT)
              && a.path("annotations").has("cause")) {
            own.add(a);
          }
        }
      }
      if (own.isEmpty()) {
        assertThat(System.nanoTime())
            .as(OWN_ALERT + " with a cause in Alertmanager: " + r.body())
            .isLessThan(deadline);
        Thread.sleep(500);
      }
    }
    for (JsonNode a : own) {
      System.out.println("received by Alertmanager, own rule: " + json.writeValueAsString(a));
      String pod = a.at("/labels/pod").asText();
      JsonNode ann = a.get("annotations");
      assertThat(pod).as(a.toString()).startsWith("vllm-");
      assertThat(ann.path("cause").asText())
          .as(a.toString())
          .startsWith("kv-pressure on " + pod + ": ");
      assertThat(ann.path("cause_evidence").asText())
          .as(a.toString())
          .contains("pod=\"" + pod + "\"");
      assertThat(ann.path("dashboard_url").asText())
          .startsWith(
              PROXY
                  + "/dashboard?namespace=inference&model="
                  + URLEncoder.encode(OWN_MODEL, StandardCharsets.UTF_8)
                  + "&level=pod&from=");
      assertThat(ann.path("summary").asText()).isEqualTo(pod + " queues");
    }
  }

  /**
   * Prints every alert Alertmanager holds with a cause on each row's model, optional ones too, in
   * full as {@code /api/v2/alerts} returned it, one JSON object a line: the surefire report keeps
   * what Alertmanager received, which docs/alerting.md quotes ({@code AlertCauseDocsTest}).
   */
  private void printReceived(List<Row> rows, Map<List<String>, JsonNode> received)
      throws java.io.IOException {
    for (Row row : rows) {
      for (Map.Entry<List<String>, JsonNode> e : received.entrySet()) {
        if (e.getKey().get(1).equals(row.model())) {
          System.out.println(
              "received by Alertmanager, "
                  + row.scenario().cliName()
                  + ": "
                  + json.writeValueAsString(e.getValue()));
        }
      }
    }
  }

  /** {@code serve}'s settings for the demo's generated configuration with {@code extra} added. */
  private static ServeSettings settings(Path config, Path workDir, String extra) {
    try {
      Files.writeString(config, extra, StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve)
        .parseArgs(
            "--config.file=" + config,
            "--web.listen-address=127.0.0.1:0",
            // as behind a reverse proxy that serves infermon under a path
            "--web.external-url=" + PROXY + "/",
            "--storage.tsdb.path=" + workDir.resolve("data"));
    return serve.settings(System.getenv());
  }

  /**
   * Waits until Alertmanager holds, with a cause, each row's first alert on the row's model and
   * every other alert of the row that infermon has firing there; returns what it holds by (alert
   * name, model). The queue alert needs a preemption in its window, which the saturated scenario
   * makes rarely: on this small fleet it may not fire, and what is not firing is not sent.
   */
  private Map<List<String>, JsonNode> waitForAlerts(Demo demo, List<Row> rows) throws Exception {
    long deadline = System.nanoTime() + ALERTS_WAIT.toNanos();
    while (true) {
      HttpResponse<String> r = get("/api/v2/alerts");
      Map<List<String>, JsonNode> got = new LinkedHashMap<>();
      if (r.statusCode() == 200) {
        for (JsonNode a : json.readTree(r.body())) {
          if (a.path("annotations").has("cause")) {
            got.put(
                List.of(
                    a.path("labels").path("alertname").asText(),
                    a.path("labels").path("model_name").asText()),
                a);
          }
        }
      }
      Set<List<String>> firing = firingInInfermon(demo);
      List<String> missing = new ArrayList<>();
      for (Row row : rows) {
        List<String> names = new ArrayList<>(row.alerts());
        names.addAll(row.optional());
        for (String name : names) {
          List<String> key = List.of(name, row.model());
          boolean required = name.equals(row.alerts().get(0)) || firing.contains(key);
          if (required && !got.containsKey(key)) {
            missing.add(name + " on " + row.model());
          }
        }
      }
      if (missing.isEmpty()) {
        return got;
      }
      assertThat(System.nanoTime())
          .as("with a cause in Alertmanager: " + missing + "; it holds " + got.keySet())
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  /** The (alert name, model) pairs infermon's rules have firing. */
  private Set<List<String>> firingInInfermon(Demo demo) throws Exception {
    Set<List<String>> out = new HashSet<>();
    HttpResponse<String> r = getFrom(demo.uiUrl(), "/api/v1/alerts");
    if (r.statusCode() == 200) {
      for (JsonNode a : json.readTree(r.body()).path("data").path("alerts")) {
        if (a.path("state").asText().equals("firing")) {
          out.add(
              List.of(
                  a.path("labels").path("alertname").asText(),
                  a.path("labels").path("model_name").asText()));
        }
      }
    }
    return out;
  }

  private HttpResponse<String> getFrom(String base, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base.replaceAll("/$", "") + path))
            .timeout(Duration.ofSeconds(60))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + amPort + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
