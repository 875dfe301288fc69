package dev.infermon.simulator.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fleet as file_sd and prometheus.yml: every target, its address and its labels. */
class InventoryFormatsTest {
  private final Fleet fleet = Fleet.create(FleetConfig.defaults(), 1_790_000_000_000L);
  private final Map<String, String> ports = new HashMap<>();

  private String hostPort(PodInfo p) {
    return ports.computeIfAbsent(p.name(), n -> "127.0.0.1:" + (9401 + ports.size()));
  }

  @Test
  void fileSdHasOneGroupPerTargetWithItsLabels() {
    String json = InventoryFormats.fileSd(fleet.inventory(), this::hostPort);
    for (PodInfo p : fleet.inventory()) {
      assertThat(json).contains("{\"targets\": [\"" + hostPort(p) + "\"], \"labels\": {");
    }
    assertThat(json)
        .contains(
            "\"namespace\": \"inference\", \"pod\": \"vllm-pd-llama-3-1-8b-instruct-prefill-0\","
                + " \"workload_name\": \"vllm-pd-llama-3-1-8b-instruct\", \"backend\":"
                + " \"vllm-pd\", \"role\": \"prefill\"}")
        .contains("{\"workload_name\": \"nvidia-dcgm-exporter\", \"backend\": \"dcgm\"}");
  }

  @Test
  void prometheusConfigScrapesEngineAndExporterJobs() {
    String yaml =
        InventoryFormats.prometheusYaml(fleet.inventory(), this::hostPort, p -> "/metrics", 15);
    assertThat(yaml)
        .contains("global:\n  scrape_interval: 15s\n")
        .contains("  - job_name: inference\n    metrics_path: /metrics\n    static_configs:\n")
        .contains("  - job_name: dcgm\n");
    for (PodInfo p : fleet.inventory()) {
      assertThat(yaml).contains("      - targets: ['" + hostPort(p) + "']\n");
    }
  }

  @Test
  void oneSharedPortGivesEveryTargetItsOwnJob() {
    String yaml =
        InventoryFormats.prometheusYaml(
            fleet.inventory(), p -> "127.0.0.1:9400", p -> "/pods/" + p.name() + "/metrics", 30);
    PodInfo first = fleet.inventory().get(0);
    assertThat(yaml)
        .contains(
            "  - job_name: inference/"
                + first.name()
                + "\n    metrics_path: /pods/"
                + first.name()
                + "/metrics\n");
  }
}
