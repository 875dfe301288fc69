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
  void specDecodePageAddsTheRealSpecFamiliesFirstAndCountsLikeVllm() {
    String text = Fixtures.vllmPage(VllmRelease.V1_CURRENT, 32768, 2, 600, 6);
    Page sim = PageChecker.strict(text);
    for (String line : Fixtures.capture("vllm-v1-spec-decode-families.txt").strip().split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      String[] cols = line.split("\\|");
      Family f = sim.family(cols[0]);
      assertThat(f.type).as(cols[0]).isEqualTo(cols[1]);
      assertThat(String.join(",", f.labelNames())).as(cols[0]).isEqualTo(cols[2]);
      assertThat(f.help).as(cols[0]).isEqualTo(cols[3]);
    }
    // registered before the MFU counters, as on the real page
    assertThat(text.indexOf("# HELP vllm:spec_decode_num_drafts_total"))
        .isPositive()
        .isLessThan(text.indexOf("# HELP vllm:estimated_flops_per_gpu_total"));
    assertThat(sim.family("vllm:spec_decode_num_accepted_tokens_per_pos_total").samples)
        .extracting(s -> s.label("engine") + "/" + s.label("position"))
        .containsExactly(
            "0/0", "0/1", "0/2", "0/3", "0/4", "0/5", "1/0", "1/1", "1/2", "1/3", "1/4", "1/5");
    for (String engine : List.of("0", "1")) {
      double drafts = value(sim, "vllm:spec_decode_num_drafts_total", engine);
      double accepted = value(sim, "vllm:spec_decode_num_accepted_tokens_total", engine);
      assertThat(drafts).as("traffic drafted").isPositive();
      assertThat(value(sim, "vllm:spec_decode_num_draft_tokens_total", engine))
          .isEqualTo(6 * drafts);
      // observe_draft counts positions 0..accepted-1: they sum to accepted and never rise
      double sum = 0;
      double previous = Double.MAX_VALUE;
      for (PageChecker.Sample s :
          sim.family("vllm:spec_decode_num_accepted_tokens_per_pos_total").samples) {
        if (s.label("engine").equals(engine)) {
          assertThat(s.value()).isLessThanOrEqualTo(previous);
          previous = s.value();
          sum += s.value();
        }
      }
      assertThat(sum).isEqualTo(accepted);
      // each verify step emits 1 + accepted: generation tokens after the first ones are
      // drafts + accepted, up to the tokens of a step not yet complete
      double firsts = sim.value("vllm:time_to_first_token_seconds_count", "engine", engine);
      assertThat(value(sim, "vllm:generation_tokens_total", engine) - firsts - drafts - accepted)
          .isBetween(0.0, 6.0);
    }
  }

  @Test
  void specDecodeFamiliesAreAbsentWithoutTheFlag() {
    Page sim = PageChecker.strict(Fixtures.vllmPage(VllmRelease.V1_CURRENT, 32768, 1, 60));
    assertThat(sim.families.keySet()).noneMatch(n -> n.startsWith("vllm:spec_decode_"));
  }

  private static double value(Page page, String family, String engine) {
    return page.value(family, "engine", engine);
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
