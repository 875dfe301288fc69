package dev.infermon.simulator.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fleet over HTTP on 127.0.0.1: pages per port, gzip, inventory and scenario control. */
class FleetServerTest {
  private static final long T0 = 1_790_000_000_000L;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Fleet fleet;
  private FleetServer server;

  @BeforeEach
  void start() throws IOException {
    fleet =
        Fleet.create(
            FleetConfig.builder().vllmPods(1).sglangPods(1).prefillDecode(false).build(), T0);
    fleet.advance(Duration.ofMinutes(2));
    server = FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<byte[]> get(String url, boolean gzip) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (gzip) {
      b.header("Accept-Encoding", "gzip");
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<String> post(String path, String... headers) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.controlPort() + path))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      r.headers(headers);
    }
    return client.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A page elsewhere cannot switch scenarios through a visitor's browser; curl and same-origin can.
   */
  @Test
  void crossSiteBrowserRequestsCannotChangeTheScenario() throws Exception {
    String self = "http://127.0.0.1:" + server.controlPort();
    for (String[] h :
        new String[][] {
          {"Sec-Fetch-Site", "cross-site"},
          {"Sec-Fetch-Site", "same-site"},
          {"Origin", "http://evil.example"},
          {"Origin", "null"}
        }) {
      HttpResponse<String> r = post("/-/scenario?name=saturated", h);
      assertThat(r.statusCode()).as(String.join(": ", h)).isEqualTo(403);
      assertThat(r.body()).startsWith("cross-site request refused");
    }
    assertThat(fleet.pods()).noneMatch(p -> p.scenario() == Scenario.SATURATED);
    assertThat(post("/-/scenario?name=saturated", "Origin", self).statusCode()).isEqualTo(200);
    assertThat(post("/-/scenario?name=healthy", "Sec-Fetch-Site", "same-origin").statusCode())
        .isEqualTo(200);
  }

  @Test
  void everyTargetServesItsPageOnItsOwnPort() throws Exception {
    for (PodInfo target : fleet.inventory()) {
      HttpResponse<byte[]> r = get(server.url(target), false);
      assertThat(r.statusCode()).as(target.name()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(new String(r.body(), StandardCharsets.UTF_8))
          .isEqualTo(fleet.render(target.name()).orElseThrow());
    }
  }

  @Test
  void pagesAreGzippedWhenTheClientAsks() throws Exception {
    PodInfo target = fleet.inventory().get(0);
    HttpResponse<byte[]> r = get(server.url(target), true);
    assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
    String text =
        new String(
            new GZIPInputStream(new ByteArrayInputStream(r.body())).readAllBytes(),
            StandardCharsets.UTF_8);
    assertThat(text).isEqualTo(fleet.render(target.name()).orElseThrow());
    assertThat(r.body().length).isLessThan(text.length() / 3);
  }

  @Test
  void inventoryListsEveryTargetWithItsUrlAndLabels() throws Exception {
    HttpResponse<byte[]> r =
        get("http://127.0.0.1:" + server.controlPort() + "/-/inventory", false);
    String json = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(r.statusCode()).isEqualTo(200);
    for (PodInfo target : fleet.inventory()) {
      assertThat(json)
          .contains("\"name\":\"" + target.name() + "\"")
          .contains("\"url\":\"" + server.url(target) + "\"");
    }
    assertThat(json).contains("\"backend\":\"dcgm\"").contains("\"workload_name\":");
  }

  @Test
  void scenariosSwitchPerPodAndFleetWide() throws Exception {
    String pod = fleet.pods().get(0).info().name();
    assertThat(post("/-/scenario?name=kv-pressure&pod=" + pod).statusCode()).isEqualTo(200);
    assertThat(fleet.scenario(pod)).isEqualTo(Scenario.KV_PRESSURE);
    assertThat(fleet.scenario(fleet.pods().get(1).info().name())).isEqualTo(Scenario.HEALTHY);
    assertThat(post("/-/scenario?name=saturated").statusCode()).isEqualTo(200);
    assertThat(fleet.pods()).allMatch(p -> p.scenario() == Scenario.SATURATED);
  }

  @Test
  void badRequestsGetClearErrors() throws Exception {
    HttpResponse<String> unknown = post("/-/scenario?name=meltdown");
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(unknown.body()).contains("unknown scenario: \"meltdown\"").contains("kv-pressure");
    assertThat(post("/-/scenario?name=healthy&pod=nope").statusCode()).isEqualTo(400);
    assertThat(post("/-/scenario").statusCode()).isEqualTo(400);
  }

  @Test
  void aRestartingPodAnswers503ThenComesBack() throws Exception {
    PodInfo target = fleet.inventory().get(0);
    fleet.setScenario(Scenario.POD_RESTART, target.name());
    assertThat(get(server.url(target), false).statusCode()).isEqualTo(503);
    fleet.advance(Duration.ofSeconds(30));
    assertThat(get(server.url(target), false).statusCode()).isEqualTo(200);
  }

  @Test
  void onePortServesEveryTargetUnderItsPath() throws Exception {
    try (FleetServer shared =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, false))) {
      PodInfo target = fleet.inventory().get(1);
      assertThat(shared.url(target))
          .isEqualTo(
              "http://127.0.0.1:" + shared.controlPort() + "/pods/" + target.name() + "/metrics");
      HttpResponse<byte[]> r = get(shared.url(target), false);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(
              get("http://127.0.0.1:" + shared.controlPort() + "/pods/nope/metrics", false)
                  .statusCode())
          .isEqualTo(404);
    }
  }
}
