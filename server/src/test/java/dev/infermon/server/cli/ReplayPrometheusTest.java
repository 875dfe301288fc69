package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.simulator.http.InventoryFormats;
import dev.infermon.simulator.http.ReplayServer;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.simulator.testing.Captures;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every replayed capture scraped by the real Prometheus 2.42 through the printed configuration:
 * each page is accepted ({@code up} 1, every sample scraped), each target has its labels, a counter
 * has a rate, and a histogram's quantile over a window of increments equals the quantile of the
 * whole page, which holds only if the replay advances the buckets in the capture's shares. Skips
 * when Prometheus is not installed.
 */
class ReplayPrometheusTest {
  @TempDir Path dir;

  @Test
  void prometheusScrapesEveryReplayedCapture() throws Exception {
    String missing = PrometheusProcess.unavailableReason();
    Assumptions.assumeTrue(missing == null, missing);
    List<ReplayTarget> targets = new ArrayList<>();
    for (Captures.Entry e : Captures.all()) {
      targets.add(e.target(Duration.ofMinutes(1)));
    }
    ReplayFleet fleet = ReplayFleet.of(targets, System.currentTimeMillis());
    try (ReplayServer replay =
            ReplayServer.start(fleet, new ReplayServer.Options("127.0.0.1", 0), Clock.systemUTC());
        PrometheusProcess prometheus =
            PrometheusProcess.start(
                InventoryFormats.prometheusYaml(replay.scrapeTargets(), 1),
                dir.resolve("data"),
                dir,
                Duration.ofSeconds(60))) {
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (!(scalar(prometheus, "count(count_over_time(up[20s]) >= 8)") >= targets.size())) {
        assertThat(System.nanoTime()).as("eight scrapes of every target").isLessThan(deadline);
        Thread.sleep(500);
      }
      for (ReplayTarget t : targets) {
        String sel = "{pod=\"" + t.name() + "\"}";
        assertThat(scalar(prometheus, "min_over_time(up" + sel + "[20s])"))
            .as("%s: every page accepted", t.name())
            .isEqualTo(1);
        assertThat(scalar(prometheus, "scrape_samples_scraped" + sel))
            .as("%s: every sample scraped", t.name())
            .isEqualTo(t.capture().samples());
        Map<String, Object> up = metric(prometheus, "up" + sel);
        assertThat(up).containsEntry("job", t.job()).containsEntry("instance", replay.hostPort(t));
        t.labels().forEach((k, v) -> assertThat(up).as(t.name()).containsEntry(k, v));
      }
      assertThat(scalar(prometheus, "rate(vllm:prompt_tokens_total{pod=\"vllm-0-4-3\"}[10s])"))
          .isPositive();
      for (String h :
          List.of(
              "vllm:time_to_first_token_seconds_bucket{pod=\"vllm-0-4-3\"}",
              "sglang:e2e_request_latency_seconds_bucket{pod=\"01-v0-4-1-docs-single-request\"}",
              "time_per_output_token_seconds_bucket{pod=\"nim-llm-2024-10-30-llama-3-1-8b-unprefixed\"}")) {
        double ofWindow = scalar(prometheus, "histogram_quantile(0.9, rate(" + h + "[10s]))");
        double ofPage = scalar(prometheus, "histogram_quantile(0.9, " + h + ")");
        assertThat(ofPage).as(h).isPositive();
        assertThat(ofWindow)
            .as(h)
            .isCloseTo(ofPage, org.assertj.core.api.Assertions.within(1e-9 * ofPage));
      }
    }
  }

  /** The value of a one-element instant vector (NaN when empty). */
  private static double scalar(PrometheusProcess p, String promql) throws Exception {
    List<Object> result = result(p, promql);
    if (result.isEmpty()) {
      return Double.NaN;
    }
    @SuppressWarnings("unchecked")
    List<Object> value = (List<Object>) ((Map<String, Object>) result.get(0)).get("value");
    return PrometheusProcess.goFloat((String) value.get(1));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metric(PrometheusProcess p, String promql) throws Exception {
    List<Object> result = result(p, promql);
    assertThat(result).as(promql).hasSize(1);
    return (Map<String, Object>) ((Map<String, Object>) result.get(0)).get("metric");
  }

  @SuppressWarnings("unchecked")
  private static List<Object> result(PrometheusProcess p, String promql) throws Exception {
    String body = p.query(promql, System.currentTimeMillis(), Duration.ofSeconds(30)).body();
    Map<String, Object> root = (Map<String, Object>) PrometheusProcess.parseJson(body);
    assertThat(root.get("status")).as(body).isEqualTo("success");
    return (List<Object>) ((Map<String, Object>) root.get("data")).get("result");
  }
}
