package dev.infermon.web.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/v1/llm/capacity} over a real TSDB: the envelope and shape, the filters, the reason of
 * a pod that cannot be estimated, 400 naming a bad parameter and 503 before the storage is ready.
 * The estimate's accuracy is the server's {@code CapacityHeadroomTest}.
 */
class LlmCapacityApiTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;
  static TestServer server;
  static final AtomicReference<CapacityService> capacity = new AtomicReference<>();

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, EngineOptions.DEFAULTS, o -> o, b -> b.capacity(capacity::get));
    long now = System.currentTimeMillis();
    for (String name : new String[] {"vllm:num_requests_running", "vllm:kv_cache_usage_perc"}) {
      Labels l =
          Labels.of(
              "__name__", name,
              "model_name", "m",
              "engine", "0",
              "job", "vllm",
              "instance", "p:8000",
              "namespace", "ns",
              "pod", "p");
      for (int i = 10; i >= 0; i--) {
        server.load(l, now - i * 60_000L, name.contains("kv") ? 0.2 : 3);
      }
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void beforeTheStorageIsReadyItIsUnavailable() throws Exception {
    capacity.set(null);
    HttpResponse<String> r = server.get("/api/v1/llm/capacity");
    assertThat(r.statusCode()).isEqualTo(503);
  }

  private static void ready() {
    capacity.set(
        new CapacityService(
            server.backend.get(), new InventoryService(Catalog.builtIn(), server.backend.get())));
  }

  @Test
  void aPodWithoutEnoughSignalsHasTheReason() throws Exception {
    ready();
    HttpResponse<String> r = server.get("/api/v1/llm/capacity?lookback=1h");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode d = JSON.readTree(r.body()).get("data");
    assertThat(d.get("lookbackSeconds").asLong()).isEqualTo(3600);
    assertThat(d.get("stepSeconds").asLong()).isEqualTo(300);
    JsonNode pod = d.get("pods").get(0);
    assertThat(pod.get("pod").asText()).isEqualTo("p");
    assertThat(pod.get("model").asText()).isEqualTo("m");
    assertThat(pod.get("estimated").asBoolean()).isFalse();
    assertThat(pod.get("reason").asText()).startsWith("no inter-token latency histogram");
    assertThat(pod.get("ceilingRate").isNull()).isTrue();
    assertThat(pod.get("ceilingInterval")).hasSize(2);
    JsonNode model = d.get("models").get(0);
    assertThat(model.has("pod")).isFalse();
    assertThat(model.get("reason").asText()).startsWith("no pod of the model has an estimate");
  }

  @Test
  void theFiltersNarrowTheAnswer() throws Exception {
    ready();
    JsonNode other =
        JSON.readTree(server.get("/api/v1/llm/capacity?model=other&lookback=1h").body())
            .get("data");
    assertThat(other.get("pods")).isEmpty();
    JsonNode none =
        JSON.readTree(server.get("/api/v1/llm/capacity?pod=q&lookback=1h").body()).get("data");
    assertThat(none.get("pods")).isEmpty();
    JsonNode p =
        JSON.readTree(server.get("/api/v1/llm/capacity?pod=p&model=m&lookback=1h").body())
            .get("data");
    assertThat(p.get("pods")).hasSize(1);
  }

  @Test
  void aBadParameterIsBadDataNamingIt() throws Exception {
    ready();
    for (String[] c :
        new String[][] {
          {"lookback=soon", "lookback"},
          {"lookback=-1h", "lookback"},
          {"lookback=1m", "lookback"},
          {"lookback=365d", "lookback"},
          {"end=yesterday", "end"}
        }) {
      HttpResponse<String> r = server.get("/api/v1/llm/capacity?" + c[0]);
      assertThat(r.statusCode()).as(c[0] + ": " + r.body()).isEqualTo(400);
      JsonNode j = JSON.readTree(r.body());
      assertThat(j.get("errorType").asText()).isEqualTo("bad_data");
      assertThat(j.get("error").asText()).as(c[0]).contains(c[1]);
    }
  }
}
