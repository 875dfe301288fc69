package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.vllm.VllmRelease;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The simulated vLLM pages have the real pages' shape: the same families, types, HELP texts, label
 * names and bucket bounds as the captures of the same release, and prometheus_client's layout.
 */
class VllmPageShapeTest {
  /** Families an idle capture lacks only because nothing was served yet. */
  private static final Set<String> TRAFFIC_ONLY =
      Set.of(
          "http_requests_created",
          "http_request_size_bytes_created",
          "http_response_size_bytes_created",
          "http_request_duration_seconds_created");

  @Test
  void v0_11PageMatchesThe011Capture() {
    Page real = PageChecker.lenient(Fixtures.capture("vllm-0.11.x-idle.txt"));
    Page sim = PageChecker.strict(Fixtures.vllmPage(VllmRelease.V0_11, 32768, 1, 600));
    assertSameShape(real, sim, TRAFFIC_ONLY);
  }

  @Test
  void v0_4_3PageMatchesThe043Capture() {
    Page real = PageChecker.lenient(Fixtures.capture("vllm-0.4.3.txt"));
    Page sim = PageChecker.strict(Fixtures.vllmPage(VllmRelease.V0_4_3, 2048, 1, 600));
    assertSameShape(real, sim, Set.of());
    assertThat(sim.families.keySet()).noneMatch(n -> n.endsWith("_created"));
  }

  @Test
  void currentPageHasThe2026CaptureFamilies() {
    Page sim = PageChecker.strict(Fixtures.vllmPage(VllmRelease.V1_CURRENT, 32768, 1, 600));
    List<String> expected =
        List.of(Fixtures.capture("vllm-v1-current-families.txt").strip().split("\n"));
    Set<String> seen = new HashSet<>();
    for (String line : expected) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] cols = line.split("\\|");
      String name = cols[0];
      seen.add(name);
      Family f = sim.family(name);
      assertThat(f.type).as(name).isEqualTo(cols[1]);
      assertThat(String.join(",", f.labelNames())).as(name).isEqualTo(cols[2]);
      assertThat(f.help).as(name).isEqualTo(cols[3]);
    }
    assertThat(sim.families.keySet())
        .as("no family beyond the capture's (process and http ones included)")
        .allMatch(n -> seen.contains(n) || !n.startsWith("vllm:"));
  }

  @Test
  void currentPageKeepsThe011BucketsAndDropsTheDeprecatedHistogram() {
    Page old = PageChecker.lenient(Fixtures.capture("vllm-0.11.x-idle.txt"));
    Page sim = PageChecker.strict(Fixtures.vllmPage(VllmRelease.V1_CURRENT, 32768, 1, 600));
    for (Family f : old.families.values()) {
      if (f.type.equals("histogram") && f.name.startsWith("vllm:")) {
        if (f.name.equals("vllm:time_per_output_token_seconds")) {
          assertThat(sim.families).doesNotContainKey(f.name);
        } else {
          assertThat(sim.family(f.name).buckets()).as(f.name).isEqualTo(f.buckets());
        }
      }
    }
    assertThat(sim.family("vllm:request_prefill_kv_computed_tokens").buckets())
        .isEqualTo(sim.family("vllm:request_prompt_tokens").buckets());
  }

  @Test
  void dataParallelEnginesEachHaveTheirChildren() {
    Page sim = PageChecker.strict(Fixtures.vllmPage(VllmRelease.V1_CURRENT, 32768, 2, 300));
    for (String name :
        List.of(
            "vllm:num_requests_running", "vllm:kv_cache_usage_perc", "vllm:prompt_tokens_total")) {
      assertThat(sim.family(name).samples)
          .extracting(s -> s.label("engine"))
          .as(name)
          .containsExactly("0", "1");
    }
    assertThat(sim.family("vllm:request_success_total").samples)
        .extracting(s -> s.label("engine") + "/" + s.label("finished_reason"))
        .containsExactly(
            "0/stop",
            "0/length",
            "0/abort",
            "0/error",
            "0/repetition",
            "1/stop",
            "1/length",
            "1/abort",
            "1/error",
            "1/repetition");
  }

  @Test
  void countersAreFollowedByTheirCreatedFamily() {
    String page = Fixtures.vllmPage(VllmRelease.V1_CURRENT, 32768, 1, 60);
    assertThat(page)
        .contains(
            "# TYPE vllm:prompt_tokens_total counter\n"
                + "vllm:prompt_tokens_total{engine=\"0\",model_name=\"Qwen/Qwen1.5-0.5B-Chat\"} ")
        .containsPattern(
            "vllm:prompt_tokens_total\\{[^\\n]*\\n# HELP vllm:prompt_tokens_created Number of"
                + " prefill tokens processed.\\n# TYPE vllm:prompt_tokens_created gauge\\n");
  }

  static void assertSameShape(Page real, Page sim, Set<String> simMayAdd) {
    assertThat(sim.families.keySet()).containsAll(real.families.keySet());
    Set<String> extra = new HashSet<>(sim.families.keySet());
    extra.removeAll(real.families.keySet());
    assertThat(extra).isSubsetOf(simMayAdd);
    for (Family r : real.families.values()) {
      Family s = sim.family(r.name);
      assertThat(s.type).as("type of " + r.name).isEqualTo(r.type);
      assertThat(s.help).as("HELP of " + r.name).isEqualTo(r.help);
      if (!r.samples.isEmpty() && !r.name.equals("vllm:cache_config_info")) {
        assertThat(s.labelNames()).as("labels of " + r.name).isEqualTo(r.labelNames());
      }
      if (r.type.equals("histogram") && !r.samples.isEmpty()) {
        assertThat(s.buckets()).as("buckets of " + r.name).isEqualTo(r.buckets());
      }
    }
    Family realInfo = real.families.get("vllm:cache_config_info");
    if (realInfo != null) {
      assertThat(sim.family("vllm:cache_config_info").labelNames())
          .containsExactlyInAnyOrderElementsOf(realInfo.labelNames());
    }
  }
}
