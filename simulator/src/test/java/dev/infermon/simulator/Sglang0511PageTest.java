package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.sglang.SglangRelease;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SGLang 0.5.11 page against the 0.5.9 one, family by family where ../shared/research/sglang.md
 * §1.2 says the line changed: the tokenizer's series gain {@code engine_type}; the full pool's
 * slots and the constants {@code page_size}, {@code num_pages}, {@code context_len} are gauges with
 * the scheduler labels, {@code cache_config_info} and {@code num_retractions} gone; a PD prefill
 * server's {@code kv_transfer_*} are histograms (one observation per request sent).
 */
class Sglang0511PageTest {
  private static final List<String> TOKENIZER_FAMILIES =
      List.of(
          "sglang:prompt_tokens_total",
          "sglang:generation_tokens_total",
          "sglang:num_requests_total",
          "sglang:time_to_first_token_seconds",
          "sglang:e2e_request_latency_seconds",
          "sglang:inter_token_latency_seconds");

  private static Page page(String engineType, SglangRelease r) {
    return PageChecker.strict(Fixtures.sglangPage(engineType, 2, 600, r));
  }

  @Test
  void tokenizerSeriesGainEngineTypeIn0511Only() {
    Page old = page("unified", SglangRelease.V0_5_9);
    Page now = page("unified", SglangRelease.V0_5_11);
    for (String name : TOKENIZER_FAMILIES) {
      assertThat(old.family(name).labelNames()).as(name).containsExactly("model_name");
      assertThat(now.family(name).labelNames())
          .as(name)
          .containsExactly("engine_type", "model_name");
      assertThat(now.family(name).help).as(name).isEqualTo(old.family(name).help);
    }
    assertThat(now.samples())
        .filteredOn(s -> s.name().equals("sglang:prompt_tokens_total"))
        .allSatisfy(s -> assertThat(s.label("engine_type")).isEqualTo("unified"));
  }

  @Test
  void cacheConfigInfoAndRetractionsHistogramAreGoneIn0511() {
    Page old = page("unified", SglangRelease.V0_5_9);
    Page now = page("unified", SglangRelease.V0_5_11);
    for (String gone : List.of("sglang:cache_config_info", "sglang:num_retractions")) {
      assertThat(old.families).as(gone).containsKey(gone);
      assertThat(now.families).as(gone).doesNotContainKey(gone);
    }
  }

  @Test
  void poolGaugesAndConstantsCarryTheSchedulerLabelsAndAddUp() {
    Page old = page("unified", SglangRelease.V0_5_9);
    Page now = page("unified", SglangRelease.V0_5_11);
    List<String> schedulerLabels = List.copyOf(old.family("sglang:num_running_reqs").labelNames());
    for (String name :
        List.of(
            "sglang:full_token_usage",
            "sglang:kv_used_tokens",
            "sglang:kv_available_tokens",
            "sglang:kv_evictable_tokens",
            "sglang:page_size",
            "sglang:num_pages",
            "sglang:context_len")) {
      assertThat(old.families).as(name).doesNotContainKey(name);
      Family f = now.family(name);
      assertThat(f.type).as(name).isEqualTo("gauge");
      assertThat(f.labelNames()).as(name).containsExactlyElementsOf(schedulerLabels);
      assertThat(f.samples).as(name + ": one per TP rank").hasSize(2);
    }
    String[] rank0 = {"tp_rank", "0"};
    double max = now.value("sglang:max_total_num_tokens", rank0);
    double used = now.value("sglang:kv_used_tokens", rank0);
    assertThat(used).isEqualTo(now.value("sglang:num_used_tokens", rank0)).isPositive();
    assertThat(used + now.value("sglang:kv_available_tokens", rank0)).isEqualTo(max);
    assertThat(now.value("sglang:full_token_usage", rank0)).isEqualTo(used / max);
    // the 0.5.9 info gauge's labels become values: the same pool on both pages
    Family info = old.family("sglang:cache_config_info");
    assertThat(now.value("sglang:num_pages", rank0))
        .isEqualTo(Double.parseDouble(info.samples.get(0).label("num_pages")))
        .isEqualTo(max / now.value("sglang:page_size", rank0));
    assertThat(now.value("sglang:context_len", rank0)).isEqualTo(32768);
  }

  @Test
  void prefillServersKvTransfersAreHistogramsIn0511() {
    Page old = page("prefill", SglangRelease.V0_5_9);
    Page now = page("prefill", SglangRelease.V0_5_11);
    for (String name :
        List.of(
            "sglang:kv_transfer_latency_ms",
            "sglang:kv_transfer_speed_gb_s",
            "sglang:kv_transfer_bootstrap_ms",
            "sglang:kv_transfer_alloc_ms",
            "sglang:kv_transfer_total_mb")) {
      assertThat(old.family(name).type).as(name).isEqualTo("gauge");
      assertThat(now.family(name).type).as(name).isEqualTo("histogram");
      assertThat(now.family(name).help).as(name).startsWith("Histogram of KV ");
    }
    assertThat(now.family("sglang:kv_transfer_latency_ms").buckets())
        .containsExactly(
            "1.0", "2.0", "5.0", "10.0", "25.0", "50.0", "100.0", "250.0", "500.0", "1000.0",
            "2500.0", "5000.0", "+Inf");
    // one observation per request the prefill server sent on: as many as its first tokens
    double sent = now.value("sglang:kv_transfer_total_mb_count", "tp_rank", "0");
    assertThat(sent).isPositive();
    assertThat(now.value("sglang:kv_transfer_latency_ms_count", "tp_rank", "0")).isEqualTo(sent);
    // a unified server sends nothing: the families print no child
    assertThat(page("unified", SglangRelease.V0_5_11).families)
        .doesNotContainKey("sglang:kv_transfer_latency_ms");
  }

  @Test
  void releasesParseByVersion() {
    assertThat(SglangRelease.fromCliName("0.5.11")).isEqualTo(SglangRelease.V0_5_11);
    assertThat(SglangRelease.fromCliName("v0.5.9")).isEqualTo(SglangRelease.V0_5_9);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SglangRelease.fromCliName("0.5.10"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"0.5.10\"");
  }
}
