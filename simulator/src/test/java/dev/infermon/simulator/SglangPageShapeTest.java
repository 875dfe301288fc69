package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.PageChecker.Sample;
import dev.infermon.simulator.sglang.SglangGateway;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The simulated SGLang pages (≈v0.5.9) have the real pages' shape: scheduler labels as in the
 * v0.5.1 and v0.5.3–0.5.6 captures plus {@code moe_ep_rank} (added in v0.5.7), the same HELP texts,
 * prometheus_client's multiprocess layout as in the v0.4.1 capture, one series per TP rank, and the
 * gateway's {@code sglang_} rewrite.
 */
class SglangPageShapeTest {
  @Test
  void schedulerGaugesMatchTheV051CaptureWithMoeEpRank() {
    Page real =
        PageChecker.lenient(Fixtures.capture("02_v0.5.1_issue13485_tp_labels_TRUNCATED.prom"));
    Page sim = PageChecker.strict(Fixtures.sglangPage("unified", 1, 600));
    assertThat(real.families).isNotEmpty();
    for (Family r : real.families.values()) {
      if (r.samples.isEmpty()) {
        continue; // the excerpt cuts this family's HELP line
      }
      Family s = sim.family(r.name);
      assertThat(s.type).as(r.name).isEqualTo(r.type);
      assertThat(s.help).as(r.name).isEqualTo(r.help);
      Set<String> expected = new LinkedHashSet<>(r.labelNames());
      expected.add("moe_ep_rank");
      assertThat(s.labelNames()).as(r.name).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void pidLabelledGaugesMatchTheV053CaptureWithoutDpAttention() {
    Page real =
        PageChecker.lenient(
            Fixtures.capture("03_v0.5.3-0.5.6_aibrix1614_dp_attention_pid_label_TRUNCATED.prom"));
    Page sim = PageChecker.strict(Fixtures.sglangPage("unified", 1, 600));
    // the excerpt starts inside num_retracted_reqs, so that family's TYPE line is cut: compare
    // both with num_paused_reqs, which the same code registers the same way
    Set<String> expected = new LinkedHashSet<>(real.family("sglang:num_paused_reqs").labelNames());
    expected.remove("dp_rank"); // only with DP attention
    expected.add("moe_ep_rank");
    for (String name : List.of("sglang:num_retracted_reqs", "sglang:num_paused_reqs")) {
      assertThat(sim.family(name).labelNames())
          .as(name)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(sim.family("sglang:num_paused_reqs").help)
        .isEqualTo(real.family("sglang:num_paused_reqs").help);
  }

  @Test
  void tokenizerFamiliesKeepTheV041NamesHelpAndMultiprocessLayout() {
    Page real = PageChecker.lenient(Fixtures.capture("01_v0.4.1_docs_single_request.prom"));
    String text = Fixtures.sglangPage("unified", 1, 600);
    Page sim = PageChecker.strict(text);
    for (String name :
        List.of(
            "sglang:prompt_tokens_total",
            "sglang:generation_tokens_total",
            "sglang:time_to_first_token_seconds",
            "sglang:e2e_request_latency_seconds")) {
      assertThat(sim.family(name).type).as(name).isEqualTo(real.family(name).type);
      assertThat(sim.family(name).help).as(name).isEqualTo(real.family(name).help);
      assertThat(sim.family(name).labelNames()).as(name).isEqualTo(real.family(name).labelNames());
    }
    // multiprocess order: _sum, then the buckets, then _count; no _created anywhere
    List<String> e2e =
        sim.family("sglang:e2e_request_latency_seconds").samples.stream()
            .map(Sample::name)
            .toList();
    assertThat(e2e.get(0)).isEqualTo("sglang:e2e_request_latency_seconds_sum");
    assertThat(e2e.get(e2e.size() - 1)).isEqualTo("sglang:e2e_request_latency_seconds_count");
    assertThat(sim.families.keySet()).noneMatch(n -> n.endsWith("_created"));
  }

  /**
   * MultiProcessCollector._accumulate_metrics (prometheus/client_python
   * prometheus_client/multiprocess.py @ d0b497ff) keeps one sample dict per child (its labels
   * without le): a child's _sum goes in while the files are read, its buckets and _count after, in
   * that child's dict, and the page prints dict by dict: each child is _sum, its buckets, its
   * _count, before the next child starts; not every child's _sum first.
   */
  @Test
  void aMultiprocessHistogramIsWrittenChildByChild() {
    Page sim = PageChecker.strict(Fixtures.sglangPage("unified", 2, 600));
    int several = 0;
    for (Family f : sim.families.values()) {
      if (!f.type.equals("histogram")) {
        continue;
      }
      List<String> done = new java.util.ArrayList<>();
      String current = null;
      for (Sample s : f.samples) {
        String suffix = s.name().substring(f.name.length());
        if (suffix.equals("_sum")) {
          assertThat(done).as(f.name + " " + s.seriesKey()).doesNotContain(s.seriesKey());
          current = s.seriesKey();
          done.add(current);
        } else {
          assertThat(s.seriesKey()).as(f.name + suffix + " after its own _sum").isEqualTo(current);
        }
      }
      several += done.size() > 1 ? 1 : 0;
    }
    assertThat(several).as("histograms with several children").isPositive();
  }

  @Test
  void bucketsAreSglangsCurrentDefaults() {
    Page sim = PageChecker.strict(Fixtures.sglangPage("unified", 1, 600));
    assertThat(sim.family("sglang:time_to_first_token_seconds").buckets())
        .containsExactly(
            "0.1", "0.2", "0.4", "0.6", "0.8", "1.0", "2.0", "4.0", "6.0", "8.0", "10.0", "20.0",
            "40.0", "60.0", "80.0", "100.0", "200.0", "400.0", "+Inf");
    assertThat(sim.family("sglang:inter_token_latency_seconds").buckets())
        .startsWith("0.002", "0.004")
        .endsWith("6.0", "8.0", "+Inf");
    assertThat(sim.family("sglang:queue_time_seconds").buckets())
        .startsWith("0.0", "0.1", "0.2", "0.5")
        .endsWith("2500.0", "3000.0", "+Inf");
  }

  @Test
  void everyTpRankReportsTheSameSchedulerSeries() {
    Page sim = PageChecker.strict(Fixtures.sglangPage("unified", 2, 600));
    Family running = sim.family("sglang:num_running_reqs");
    assertThat(running.samples).extracting(s -> s.label("tp_rank")).containsExactly("0", "1");
    assertThat(running.samples.get(0).value()).isEqualTo(running.samples.get(1).value());
    assertThat(sim.family("sglang:num_retracted_reqs").samples)
        .extracting(s -> s.label("pid"))
        .containsExactly("910", "911");
    assertThat(sim.family("sglang:prompt_tokens_total").samples).hasSize(1);
  }

  @Test
  void cacheConfigInfoCarriesThePagesAsLabelsOnceForAllRanks() {
    Page sim = PageChecker.strict(Fixtures.sglangPage("unified", 2, 600));
    Family info = sim.family("sglang:cache_config_info");
    assertThat(info.type).isEqualTo("gauge");
    assertThat(info.help).isEqualTo("Cache configuration information.");
    // labelnames [page_size, num_pages] only, one child for every rank (mostrecent), value 1
    assertThat(info.samples).hasSize(1);
    Sample only = info.samples.get(0);
    assertThat(only.labelNames()).containsExactly("num_pages", "page_size");
    assertThat(only.value()).isEqualTo(1);
    // num_pages = max_total_num_tokens // page_size
    double tokens = sim.family("sglang:max_total_num_tokens").samples.get(0).value();
    long pages = Long.parseLong(only.label("num_pages"));
    long size = Long.parseLong(only.label("page_size"));
    assertThat(pages).isPositive();
    assertThat((double) (pages * size)).isEqualTo(tokens);
  }

  @Test
  void prefillServersReportNoTtftAndTheirEngineType() {
    Page prefill = PageChecker.strict(Fixtures.sglangPage("prefill", 1, 600));
    assertThat(prefill.families).doesNotContainKey("sglang:time_to_first_token_seconds");
    assertThat(prefill.value("sglang:num_running_reqs", "engine_type", "prefill"))
        .isGreaterThanOrEqualTo(0);
    assertThat(prefill.value("sglang:utilization", "engine_type", "prefill")).isEqualTo(-1);
    Page decode = PageChecker.strict(Fixtures.sglangPage("decode", 1, 600));
    assertThat(decode.family("sglang:time_to_first_token_seconds").samples).isNotEmpty();
    assertThat(decode.family("sglang:num_decode_transfer_queue_reqs").samples)
        .allMatch(s -> "decode".equals(s.label("engine_type")));
  }

  /**
   * A PD prefill server observes no inter-token latency: its tokenizer manager's collect_metrics
   * (sgl-project/sglang python/sglang/srt/managers/tokenizer_manager.py @ 001067ff) skips TTFT on a
   * prefill server and observes ITL only for the tokens after {@code last_completion_tokens}, which
   * starts at 1 ({@code ReqState}); a prefill request ends with the one token its forward appended
   * (disaggregation/prefill.py @ 000c2b94, process_batch_result_disagg_prefill, "There is no
   * output_ids for prefill"), streamed once when its KV transfer is done, so no interval is
   * observed and the family has no sample. (A request aborted before its prefill reports 0 tokens,
   * a delta of -1 the collector lands in a bucket: the bug sgl-project/sglang#39706 fixes; the
   * simulator aborts none there.)
   */
  @Test
  void prefillServersObserveNoInterTokenLatency() {
    Page prefill = PageChecker.strict(Fixtures.sglangPage("prefill", 1, 600));
    assertThat(prefill.value("sglang:num_requests_total", "model_name", "Qwen-32B")).isPositive();
    assertThat(prefill.families)
        .doesNotContainKey("sglang:inter_token_latency_seconds")
        .doesNotContainKey("sglang:time_per_output_token_seconds");
    Page decode = PageChecker.strict(Fixtures.sglangPage("decode", 1, 600));
    assertThat(decode.family("sglang:inter_token_latency_seconds").samples).isNotEmpty();
  }

  @Test
  void gatewayRewritesColonsAndAddsTheWorkerAddress() {
    String worker = Fixtures.sglangPage("unified", 2, 300);
    String gateway =
        SglangGateway.render(
            List.of(
                new SglangGateway.Worker("http://10.42.0.11:30000", worker),
                new SglangGateway.Worker("http://10.42.0.12:30000", worker)));
    Page page = PageChecker.strict(gateway);
    assertThat(gateway).doesNotContain("sglang:");
    assertThat(page.family("sglang_num_running_reqs").samples)
        .hasSize(4)
        .allMatch(s -> s.labelNames().get(s.labelNames().size() - 1).equals("worker_addr"));
    assertThat(page.family("sglang_realtime_tokens_total").help)
        .endsWith("mode_ prefill_compute, prefill_cache, decode.");
    assertThat(gateway.split("# TYPE sglang_num_running_reqs ", -1)).hasSize(2);
  }
}
