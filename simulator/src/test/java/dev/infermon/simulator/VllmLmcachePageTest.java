package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.vllm.VllmLmcache;
import dev.infermon.simulator.vllm.VllmMetrics;
import dev.infermon.simulator.vllm.VllmPage;
import dev.infermon.simulator.vllm.VllmRelease;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The page of a vLLM pod with LMCache, which runs with PROMETHEUS_MULTIPROC_DIR and so is what
 * prometheus_client's MultiProcessCollector makes of the processes' files, then the
 * instrumentator's http_* families a second time from the API server's own registry.
 */
class VllmLmcachePageTest {
  private static final String MODEL = "Qwen/Qwen2.5-1.5B-Instruct";

  private static String page(double seconds) {
    VllmMetrics m = new VllmMetrics(32768, false, false, 0);
    m.enableLmcache(new VllmLmcache(2));
    EngineModel e =
        new EngineModel(
            Fixtures.params(32768), Fixtures.workload(32768), LoadShape.flat(), 5, m, Fixtures.T0);
    e.advanceTo(Fixtures.T0 + seconds);
    return VllmPage.render(
        new VllmPage.View(
            VllmRelease.V1_CURRENT,
            MODEL,
            List.of(new VllmPage.Engine(0, m, e.state())),
            Fixtures.params(32768),
            Fixtures.T0,
            Fixtures.T0 + seconds));
  }

  /** Family name (TYPE line) to its type, in page order; a repeated family keyed name#2. */
  private static Map<String, String> families(String page) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String l : page.split("\n")) {
      if (l.startsWith("# TYPE ")) {
        String[] p = l.split(" ");
        out.put(out.containsKey(p[2]) ? p[2] + "#2" : p[2], p[3]);
      }
    }
    return out;
  }

  @Test
  void noCreatedSeriesNoProcessFamiliesOutsideTheDoubledHttpFamilies() {
    String page = page(120);
    List<String> fileFamilies = new ArrayList<>();
    boolean inLive = false;
    for (String name : families(page).keySet()) {
      inLive |= name.endsWith("#2");
      if (!inLive) {
        fileFamilies.add(name);
      }
    }
    assertThat(fileFamilies).noneMatch(n -> n.endsWith("_created"));
    assertThat(families(page).keySet())
        .noneMatch(n -> n.startsWith("python_") || n.startsWith("process_"));
    // the live copies (instrumentator collectors registered beside the MultiProcessCollector)
    assertThat(families(page)).containsKeys("http_requests_total#2", "http_requests_created");
    assertThat(page).doesNotContain("vllm:prompt_tokens_created");
  }

  @Test
  void familiesComeFileByFileCountersThenGaugesByModeThenHistogramsThenSummaries() {
    List<String> types = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, String> f : families(page(120)).entrySet()) {
      if (f.getKey().contains("#2")) {
        break;
      }
      names.add(f.getKey());
      types.add(f.getValue());
    }
    // counter_1.db, counter_215.db, counter_216.db, gauge_livemostrecent_215.db, ...
    int firstGauge = types.indexOf("gauge");
    int firstHistogram = types.indexOf("histogram");
    int firstSummary = types.indexOf("summary");
    assertThat(types.subList(0, firstGauge)).containsOnly("counter");
    assertThat(types.subList(firstGauge, firstHistogram)).containsOnly("gauge");
    assertThat(types.subList(firstHistogram, firstSummary)).containsOnly("histogram");
    assertThat(names.indexOf("vllm:generation_tokens_total"))
        .isLessThan(names.indexOf("lmcache:num_retrieve_requests_total"));
    // LMCache's livemostrecent file sorts before vLLM's mostrecent one, its sum file after
    assertThat(names.indexOf("lmcache:lmcache_is_healthy"))
        .isLessThan(names.indexOf("vllm:num_requests_running"));
    assertThat(names.indexOf("vllm:cache_config_info"))
        .isLessThan(names.indexOf("lmcache:storage_events_ongoing_count"));
    // log_prometheus's order, not __init__'s
    assertThat(names.indexOf("lmcache:num_prompt_tokens_total"))
        .isLessThan(names.indexOf("lmcache:num_vllm_hit_tokens_total"));
  }

  @Test
  void aHistogramChildIsSumBucketsCountAndTheWorkersFollowEachOther() {
    String page = page(120);
    int help = page.indexOf("# HELP lmcache:time_to_lookup ");
    String block = page.substring(help, page.indexOf("# HELP", help + 1));
    String[] lines = block.split("\n");
    String w0 =
        "model_name=\"/mnt/models/"
            + MODEL
            + "\",role=\"worker\",served_model_name=\""
            + MODEL
            + "\",worker_id=\"0\"";
    assertThat(lines[2]).startsWith("lmcache:time_to_lookup_sum{" + w0 + "} ");
    assertThat(lines[3])
        .startsWith("lmcache:time_to_lookup_bucket{le=\"1e-05\"," + w0.substring(0));
    assertThat(lines[23]).startsWith("lmcache:time_to_lookup_bucket{le=\"+Inf\"");
    assertThat(lines[24]).startsWith("lmcache:time_to_lookup_count{" + w0 + "} ");
    assertThat(lines[25]).startsWith("lmcache:time_to_lookup_sum{").contains("worker_id=\"1\"");
  }

  @Test
  void theSetFunctionGaugesReadZeroAndAnUnobservedHistogramIsAbsent() {
    String page = page(120);
    assertThat(page)
        .contains("lmcache:lmcache_is_healthy{model_name=")
        .doesNotContain("lmcache:p2p_time_to_transfer")
        .doesNotContain("lmcache:remote_time_to_get");
    for (String l : page.split("\n")) {
      if (l.startsWith("lmcache:lmcache_is_healthy") || l.startsWith("lmcache:periodic_threads_")) {
        assertThat(l).endsWith(" 0.0");
      }
    }
    // before the stats thread's first log only the dynamic gauges' children exist
    String start = page(0);
    assertThat(start)
        .contains("lmcache:kv_msg_queue_size")
        .doesNotContain("lmcache:num_hit_tokens");
  }
}
