package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The default alert pack behind the SGLang gateway: a fleet of gateway pods only, whose names are
 * all spelt {@code sglang_}, runs 5 minutes healthy and 20 with long prompts; the pack, evaluated
 * every minute by the rules module ({@link PackAlerts}), fires its TTFT alert on the model, as it
 * does on directly scraped SGLang pods ({@link DiagnosisScenariosTest}).
 */
class GatewayAlertsTest {
  @Test
  void ttftAlertFiresOnAGatewayFleet() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(2)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .build();
    ScrapedFleet f = new ScrapedFleet(config);
    PackAlerts pack = new PackAlerts(f.storage);
    f.run(Duration.ofMinutes(5), t -> everyMinute(pack, t));
    assertThat(pack.firing()).as("healthy").isEmpty();
    f.fleet.setScenario(Scenario.LONG_PROMPTS);
    f.run(Duration.ofMinutes(20), t -> everyMinute(pack, t));

    List<TargetInventory> sglang =
        new InventoryService(Catalog.builtIn(), f.backend)
            .inventory(f.now(), 300_000)
            .filter(t -> t.engine().equals("sglang"))
            .targets();
    assertThat(sglang).isNotEmpty();
    assertThat(sglang).allSatisfy(t -> assertThat(t.detection().prefix()).isEqualTo("sglang_"));
    assertThat(pack.firing())
        .extracting(PackAlerts.Firing::alert)
        .contains("LLMTimeToFirstTokenHigh");
  }

  private static void everyMinute(PackAlerts pack, long t) {
    if ((t - ScrapedFleet.START) % 60_000 == 0) {
      pack.eval(t);
    }
  }
}
