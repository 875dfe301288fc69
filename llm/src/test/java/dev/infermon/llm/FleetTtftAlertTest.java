package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.rules.testing.RuleUnitFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default pack exported for a fleet of a vLLM 0.4.3 pod, whose time-to-first-token buckets stop
 * at 10 s, and a current pod, with a 20 s TTFT threshold: the rule compares vLLM's quantile with 10
 * by {@code >=} and fires on the slow old pod, under infermon's runner and the real promtool
 * ({@code src/test/resources/alert-pack-fleet/ttft_v0_fleet_test.yml}).
 */
class FleetTtftAlertTest {
  static final Path TEST = Path.of("src/test/resources/alert-pack-fleet/ttft_v0_fleet_test.yml");
  static final Catalog CATALOG = Catalog.builtIn();
  static final List<Double> V0 =
      List.of(
          0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5,
          10.0);
  static final List<Double> V1 =
      List.of(
          0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5,
          10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0);
  static final LlmConfig.Alerts AT_20S =
      new LlmConfig.Alerts(
          true,
          0.95,
          Duration.ofSeconds(20),
          Duration.ofMinutes(10),
          50,
          Duration.ofMinutes(15),
          0.05,
          Duration.ofMinutes(15),
          10);

  static TargetInventory pod(String name, String first, String last, List<Double> bounds) {
    EngineCatalog vllm = CATALOG.engine("vllm");
    Spelling spelling =
        vllm.spellings().stream().filter(s -> s.prefix().equals("vllm:")).findFirst().orElseThrow();
    ReleaseRange r =
        new ReleaseRange(vllm.version(first).orElseThrow(), vllm.version(last).orElseThrow());
    String family = "vllm:time_to_first_token_seconds";
    return new TargetInventory(
        Map.of("instance", name, "pod", name, "namespace", "prod"),
        true,
        new Detection("vllm", "vllm:", r, List.of(), List.of(), spelling, null),
        Map.of(family, new FamilyInfo(family, MetricType.HISTOGRAM, Set.of("model_name"), bounds)));
  }

  @Test
  void theSlowOldPodFires(@TempDir Path dir) throws Exception {
    Inventory fleet =
        new Inventory(List.of(pod("old", "0.4", "0.7", V0), pod("new", "0.24", "0.33", V1)));
    String rules = new ExportService(CATALOG).rules(fleet, AT_20S);
    assertThat(rules).contains(">= 10");
    Files.writeString(dir.resolve("fleet-alerts.yml"), rules);
    Path test = Files.copy(TEST, dir.resolve(TEST.getFileName()));
    RuleUnitFiles.assertPassesUnderInfermon(test);
    RuleUnitFiles.assertPassesUnderPromtool(test);
  }

  static final Path DYNAMO =
      Path.of("src/test/resources/alert-pack-fleet/dynamo_nv_llm_fleet_test.yml");

  /**
   * A fleet behind a Dynamo frontend of the older generation: the pack written before any target is
   * seen reads only the current dynamo_frontend_* (lint calls the older names removed), the fleet's
   * export reads the nv_llm_http_service_* TTFT it has, which fires where the decode worker's does
   * not.
   */
  @Test
  void anOlderDynamoFrontendsTtftIsReadWhereTheFleetHasIt(@TempDir Path dir) throws Exception {
    String family = "nv_llm_http_service_time_to_first_token_seconds";
    TargetInventory frontend =
        new TargetInventory(
            Map.of("instance", "frontend-0", "pod", "frontend-0", "namespace", "old"),
            true,
            Detection.of(Detection.UNKNOWN),
            Map.of(
                family,
                new FamilyInfo(family, MetricType.HISTOGRAM, Set.of("model"), List.of(4.7, 10.0))));
    Inventory fleet = new Inventory(List.of(frontend, pod("decode-0", "0.24", "0.33", V1)));
    String rules = new ExportService(CATALOG).rules(fleet, LlmConfig.Alerts.DEFAULT);
    assertThat(rules).contains(family + "_bucket");
    assertThat(
            dev.infermon.llm.export.AlertPack.rules(
                    CATALOG, Set.of("vllm"), LlmConfig.Alerts.DEFAULT)
                .get(0)
                .expr())
        .contains("dynamo_frontend_time_to_first_token_seconds_bucket")
        .doesNotContain("nv_llm_http_service");
    Files.writeString(dir.resolve("fleet-alerts-dynamo.yml"), rules);
    Path test = Files.copy(DYNAMO, dir.resolve(DYNAMO.getFileName()));
    RuleUnitFiles.assertPassesUnderInfermon(test);
    RuleUnitFiles.assertPassesUnderPromtool(test);
  }
}
