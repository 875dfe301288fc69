package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.await;
import static dev.infermon.server.cli.ServeTestSupport.body;
import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.server.runtime.Infermon;
import dev.infermon.simulator.http.InventoryFormats;
import dev.infermon.simulator.http.ReplayServer;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.simulator.testing.Captures;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code infermon serve} pointed at the scrape configuration of a replayed capture (as {@code
 * simulate --replay --print-prometheus-config} prints it) scrapes it live: the stored series carry
 * the target labels, a counter's rate is the captured value per uptime, and the LLM inventory
 * recognises the engine on the replayed pod.
 */
class ReplayServeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void serveScrapesAReplayedCaptureAndItsCounterHasARate() throws Exception {
    // vLLM 0.4.3 after 5 prompt tokens; an uptime of 1 min makes that 5/60 tokens per second
    ReplayTarget target =
        Captures.get("vllm-0.4.3.txt")
            .target(Duration.ofMinutes(1), "pod", "opt-0", "workload_name", "opt");
    ReplayFleet fleet = ReplayFleet.of(List.of(target), System.currentTimeMillis());
    try (ReplayServer replay =
        ReplayServer.start(fleet, new ReplayServer.Options("127.0.0.1", 0), Clock.systemUTC())) {
      Path cfg = dir.resolve("infermon.yml");
      Files.writeString(cfg, InventoryFormats.prometheusYaml(replay.scrapeTargets(), 1));
      Infermon m =
          serve(
                  "--config.file=" + cfg,
                  "--web.listen-address=127.0.0.1:0",
                  "--storage.tsdb.path=" + dir.resolve("data"))
              .infermon();
      assertThat(m).as("infermon serve started").isNotNull();
      try {
        String rate = "rate(vllm:prompt_tokens_total[10s])";
        // a window the samples cover, so that rate() extrapolates only to its edges
        await(
            "ten seconds of scrapes",
            Duration.ofSeconds(60),
            () -> {
              JsonNode n = result(m, "count_over_time(vllm:prompt_tokens_total[10s]) >= 9");
              return !n.isEmpty();
            });
        JsonNode sample = result(m, rate).get(0);
        JsonNode labels = sample.path("metric");
        assertThat(labels.path("namespace").asText()).isEqualTo("replay");
        assertThat(labels.path("pod").asText()).isEqualTo("opt-0");
        assertThat(labels.path("workload_name").asText()).isEqualTo("opt");
        assertThat(labels.path("backend").asText()).isEqualTo("vllm");
        assertThat(labels.path("job").asText()).isEqualTo("inference");
        assertThat(labels.path("instance").asText()).isEqualTo(replay.hostPort(target));
        assertThat(labels.path("model_name").asText()).isEqualTo("facebook/opt-125m");
        assertThat(sample.path("value").get(1).asDouble()).isPositive();
        // the stored samples themselves: the steady rate, 5 tokens per minute of uptime (the page
        // is rendered when the request arrives, the sample stamped when the scrape started:
        // milliseconds apart over seconds)
        JsonNode values = result(m, "vllm:prompt_tokens_total[10s]").get(0).path("values");
        JsonNode first = values.get(0);
        JsonNode last = values.get(values.size() - 1);
        double perSecond =
            (last.get(1).asDouble() - first.get(1).asDouble())
                / (last.get(0).asDouble() - first.get(0).asDouble());
        assertThat(perSecond).isCloseTo(5.0 / 60, within(0.05 * 5.0 / 60));

        JsonNode inventory = JSON.readTree(body(m, "/api/v1/llm/inventory")).path("data");
        assertThat(inventory.path("engines").toString()).isEqualTo("[\"vllm\"]");
        assertThat(inventory.path("targets").get(0).path("labels").path("pod").asText())
            .isEqualTo("opt-0");
      } finally {
        m.close();
      }
    }
  }

  private static JsonNode result(Infermon m, String promql) {
    try {
      String q = URLEncoder.encode(promql, StandardCharsets.UTF_8);
      return JSON.readTree(body(m, "/api/v1/query?query=" + q)).path("data").path("result");
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
