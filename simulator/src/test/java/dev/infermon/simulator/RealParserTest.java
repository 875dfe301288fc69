package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.vllm.VllmRelease;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every kind of page (vLLM current and 0.4.3, SGLang, its gateway, PD pairs, dcgm), in every
 * scenario, is read by infermon's own text-format parser (module textparse) without an error, with
 * the same samples as the test checker finds.
 */
class RealParserTest {
  @Test
  void everyPageParsesInEveryScenario() throws Exception {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(2)
                .legacyRelease(VllmRelease.V0_4_3)
                .sglangPods(1)
                .models(List.of(ModelProfile.LLAMA_8B.name()))
                .build(),
            1_790_000_000_000L);
    fleet.advance(Duration.ofMinutes(3));
    for (Scenario scenario : Scenario.values()) {
      fleet.setScenario(scenario);
      fleet.advance(Duration.ofSeconds(20));
      checkPages(fleet);
    }
  }

  private static void checkPages(Fleet fleet) throws Exception {
    Map<String, String> pages = fleet.snapshot().pages();
    assertThat(pages).hasSizeGreaterThanOrEqualTo(fleet.inventory().size() - 1);
    for (Map.Entry<String, String> page : pages.entrySet()) {
      byte[] body = page.getValue().getBytes(StandardCharsets.UTF_8);
      Parser p =
          Parsers.forContentType(FleetServer.CONTENT_TYPE, ParserOptions.DEFAULT).parse(body);
      int series = 0;
      for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
        if (e == Entry.SERIES) {
          series++;
        }
      }
      assertThat(series)
          .as(page.getKey())
          .isPositive()
          .isEqualTo(PageChecker.strict(page.getValue()).samples().size());
    }
  }
}
