package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.vllm.VllmLora;
import dev.infermon.simulator.vllm.VllmMetrics;
import dev.infermon.simulator.vllm.VllmPage;
import dev.infermon.simulator.vllm.VllmRelease;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The simulated {@code vllm:lora_requests_info}: the layout prometheus_client gives the gauge, one
 * child per combination seen, the newest naming what the engine's requests hold, and the scheduler
 * keeping to {@code --max-loras}.
 */
class VllmLoraTest {
  private static final List<String> ADAPTERS = List.of("sql", "chat", "legal");
  private static final Pattern LINE =
      Pattern.compile(
          "vllm:lora_requests_info\\{max_lora=\"(\\d+)\",running_lora_adapters=\"([^\"]*)\","
              + "waiting_lora_adapters=\"([^\"]*)\"} (\\S+)");

  /** An engine of {@code release} serving ADAPTERS with 2 slots, under the test workload. */
  private record Sim(VllmRelease release, VllmMetrics metrics, EngineModel engine) {
    static Sim of(VllmRelease release) {
      EngineParams p = Fixtures.params(32768);
      VllmMetrics m = new VllmMetrics(32768, false, false, 0);
      m.enableLora(VllmLora.forRelease(release, 2));
      EngineModel e =
          new EngineModel(p, Fixtures.workload(32768), LoadShape.flat(), 5, m, Fixtures.T0);
      e.setLora(new LoraAdapters(ADAPTERS, 2));
      return new Sim(release, m, e);
    }

    String page(double now) {
      return VllmPage.render(
          new VllmPage.View(
              release,
              "Qwen/Qwen1.5-0.5B-Chat",
              List.of(new VllmPage.Engine(0, metrics, engine.state())),
              Fixtures.params(32768),
              Fixtures.T0,
              now));
    }
  }

  @Test
  void theGaugeIsLaidOutAsPrometheusClientWritesIt() {
    Sim s = Sim.of(VllmRelease.V1_CURRENT);
    String before = s.page(Fixtures.T0);
    // registered with --enable-lora, no child before the first record: HELP and TYPE only
    assertThat(before)
        .contains(
            "# HELP vllm:lora_requests_info Running stats on lora requests.\n"
                + "# TYPE vllm:lora_requests_info gauge\n# HELP vllm:cache_config_info");
    s.engine().advanceTo(Fixtures.T0 + 120);
    String page = s.page(Fixtures.T0 + 120);
    PageChecker.strict(page);
    List<String> lines = new ArrayList<>();
    for (String l : page.split("\n")) {
      if (l.startsWith("vllm:lora_requests_info")) {
        lines.add(l);
      }
    }
    assertThat(lines).hasSizeGreaterThan(1); // every combination seen stays
    Set<String> distinct = new LinkedHashSet<>();
    for (String l : lines) {
      Matcher m = LINE.matcher(l);
      assertThat(m.matches()).as(l).isTrue();
      assertThat(m.group(1)).isEqualTo("2");
      assertThat(distinct.add(m.group(2) + "|" + m.group(3)))
          .as("one child per combination")
          .isTrue();
      double at = Double.parseDouble(m.group(4));
      // the end of an engine step; the step running at the page's time may end a little later
      assertThat(at).isBetween(Fixtures.T0, Fixtures.T0 + 121);
      assertThat(m.group(4)).matches("1\\.\\d+e\\+09"); // Python's float repr, as time.time()
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = VllmRelease.class,
      names = {"V1_CURRENT", "V0_11"})
  void theNewestSeriesNamesTheTruthAndTheSlotsAreKept(VllmRelease release) {
    Sim s = Sim.of(release);
    VllmLora lora = s.metrics().lora();
    int checked = 0;
    int blockedSeen = 0;
    for (int t = 1; t <= 300; t++) {
      s.engine().advanceTo(Fixtures.T0 + t);
      List<String> running = new ArrayList<>();
      List<String> waiting = new ArrayList<>();
      for (String a : ADAPTERS) {
        if (lora.running(a) > 0) {
          running.add(a);
        }
        if (lora.waiting(a) > 0) {
          waiting.add(a);
        }
      }
      assertThat(running.size()).as("adapters running at %d", t).isLessThanOrEqualTo(2);
      blockedSeen += s.engine().state().waitingDeferred();
      if (release == VllmRelease.V0_11) {
        assertThat(new LinkedHashSet<>(lora.runningList()))
            .containsExactlyInAnyOrderElementsOf(running);
        assertThat(new LinkedHashSet<>(lora.waitingList()))
            .containsExactlyInAnyOrderElementsOf(waiting);
      } else {
        Set<String> inFlight = new LinkedHashSet<>(running);
        inFlight.addAll(waiting);
        assertThat(lora.runningList()).containsExactlyInAnyOrderElementsOf(inFlight);
        assertThat(lora.waitingList()).isEqualTo(lora.runningList());
      }
      checked += running.size();
    }
    assertThat(checked).as("adapters were running").isPositive();
    assertThat(blockedSeen).as("requests waited for a LoRA slot (deferred)").isPositive();
  }

  @Test
  void anAdapterNoLongerAskedForLeavesTheListsWhenItsRequestsFinish() {
    Sim s = Sim.of(VllmRelease.V1_CURRENT);
    s.engine().advanceTo(Fixtures.T0 + 120);
    s.engine().setLora(new LoraAdapters(List.of("sql", "chat"), 2));
    s.engine().advanceTo(Fixtures.T0 + 600);
    assertThat(s.metrics().lora().running("legal") + s.metrics().lora().waiting("legal")).isZero();
    assertThat(s.metrics().lora().runningList()).doesNotContain("legal");
    // its old combinations stay on the page, with the time they were last current
    assertThat(s.page(Fixtures.T0 + 600)).contains("legal");
  }

  @Test
  void badAdaptersAreRefusedByName() {
    assertThatThrownBy(() -> new LoraAdapters(List.of("a,b"), 1)).hasMessageContaining("\"a,b\"");
    assertThatThrownBy(() -> new LoraAdapters(List.of("a", "a"), 1)).hasMessageContaining("repeat");
    assertThatThrownBy(() -> new LoraAdapters(List.of("a"), 0)).hasMessageContaining("maxLoras");
    assertThatThrownBy(() -> VllmLora.forRelease(VllmRelease.V0_4_3, 1))
        .hasMessageContaining("0.4.3");
  }
}
