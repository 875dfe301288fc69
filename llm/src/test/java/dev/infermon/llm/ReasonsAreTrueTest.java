package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The first reason of an empty panel is the real one, on small stored pages that each show one
 * situation the real captures show (a page cut after one family, a V1 page without V0's families,
 * SGLang's scheduler gauges without one of them, a release told by what it lacks, a dcgm-exporter
 * whose counters CSV leaves a default field out): each row is a page, a panel and filter, and the
 * status and first reason the panel must give.
 */
class ReasonsAreTrueTest {
  private static final long T0 = SimulatedFleet.START;

  /** A page's series: family (sample) name and its labels besides the target's. */
  private static final Map<String, List<Sample>> PAGES = new LinkedHashMap<>();

  /** What a series' samples do over the stored window. */
  private enum Shape {
    /** 10 more every scrape (a counter with traffic). */
    RISING,
    /** 1 throughout (a held gauge, a counter that once counted). */
    HELD,
    /** 0 throughout (an idle engine). */
    ZERO
  }

  private record Sample(String name, Map<String, String> labels, Shape shape) {}

  private static void page(String page, String name, boolean counter, String... labels) {
    page(page, name, counter ? Shape.RISING : Shape.HELD, labels);
  }

  private static void page(String page, String name, Shape shape, String... labels) {
    Map<String, String> l = new LinkedHashMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      l.put(labels[i], labels[i + 1]);
    }
    PAGES.computeIfAbsent(page, k -> new ArrayList<>()).add(new Sample(name, l, shape));
  }

  /** A V1 page with the scheduler gauges, token counters and TTFT histogram shaped so. */
  private static void vllmV1(String page, Shape gauges, Shape counters) {
    for (String g :
        List.of("num_requests_running", "num_requests_waiting", "kv_cache_usage_perc")) {
      page(page, "vllm:" + g, gauges, "engine", "0", "model_name", "m");
    }
    for (String c :
        List.of("prompt_tokens_total", "generation_tokens_total", "num_requests_total")) {
      page(page, "vllm:" + c, counters, "engine", "0", "model_name", "m");
    }
    for (String le : List.of("0.1", "1.0", "+Inf")) {
      page(
          page,
          "vllm:time_to_first_token_seconds_bucket",
          counters,
          "engine",
          "0",
          "le",
          le,
          "model_name",
          "m");
    }
    for (String suffix : List.of("_sum", "_count")) {
      page(
          page,
          "vllm:time_to_first_token_seconds" + suffix,
          counters,
          "engine",
          "0",
          "model_name",
          "m");
    }
  }

  static {
    // the vLLM pr28792 excerpt: one family of a V1 page (SOURCES.md: excerpt)
    page("vllm_cut", "vllm:kv_cache_usage_perc", false, "engine", "0", "model_name", "m");
    // a V1 page with the scheduler gauges and token counters, no V0 family
    for (String g :
        List.of("num_requests_running", "num_requests_waiting", "kv_cache_usage_perc")) {
      page("vllm_v1", "vllm:" + g, false, "engine", "0", "model_name", "m");
    }
    page("vllm_v1", "vllm:prompt_tokens_total", true, "engine", "0", "model_name", "m");
    page("vllm_v1", "vllm:generation_tokens_total", true, "engine", "0", "model_name", "m");
    // SGLang 0.5.1 cut after gen_throughput: num_queue_reqs lost (sample 02)
    for (String g : List.of("num_running_reqs", "token_usage", "gen_throughput")) {
      page("sglang_cut", "sglang:" + g, false, "engine_type", "unified", "model_name", "m");
    }
    // SGLang serving requests none of which hit the prefix cache (a PD decode server):
    // cached_tokens_total is created at a first hit, not at a first request (collector.py @
    // 00ae9c15 observe_one_finished_request: if cached_tokens > 0)
    for (String g : List.of("num_running_reqs", "num_queue_reqs", "token_usage", "utilization")) {
      page("sglang_no_hits", "sglang:" + g, false, "engine_type", "unified", "model_name", "m");
    }
    for (String c :
        List.of("prompt_tokens_total", "generation_tokens_total", "num_requests_total")) {
      page("sglang_no_hits", "sglang:" + c, true, "engine_type", "unified", "model_name", "m");
    }
    // SGLang 0.5.9's start-up info gauge: a release with the retraction counter, none retracted yet
    page("sglang_no_hits", "sglang:cache_config_info", false, "num_pages", "100", "page_size", "1");
    // SGLang 0.4.1 (sample 01): token counters written at finish, no num_requests_total
    for (String g :
        List.of("num_running_reqs", "num_queue_reqs", "token_usage", "gen_throughput")) {
      page("sglang_041", "sglang:" + g, false, "model_name", "m");
    }
    page("sglang_041", "sglang:prompt_tokens_total", true, "model_name", "m");
    page("sglang_041", "sglang:generation_tokens_total", true, "model_name", "m");
    // a dcgm-exporter whose custom counters CSV has GPU_UTIL but not FB_USED
    page("vllm_v1_dcgm_no_fb", "DCGM_FI_DEV_GPU_UTIL", false, "gpu", "0", "UUID", "GPU-1");
    // the same, its GPU attributed to the vLLM pod: GPUs are counted from GPU_UTIL
    page(
        "vllm_v1_dcgm_util_pod",
        "DCGM_FI_DEV_GPU_UTIL",
        false,
        "gpu",
        "0",
        "UUID",
        "GPU-1",
        "exported_namespace",
        "n",
        "exported_pod",
        "p");
    // an exporter whose CSV keeps only a profiling field: no per-GPU family to count GPUs by
    page(
        "vllm_v1_dcgm_prof_only",
        "DCGM_FI_PROF_SM_ACTIVE",
        false,
        "gpu",
        "0",
        "UUID",
        "GPU-1",
        "exported_namespace",
        "n",
        "exported_pod",
        "p");
    // an idle V1 engine: every family there, nothing moves
    vllmV1("vllm_idle", Shape.ZERO, Shape.ZERO);
    // a V1 engine with traffic: the families move
    vllmV1("vllm_busy", Shape.HELD, Shape.RISING);
    // request_success_total without finished_reason (as NIM writes it): it moves, nothing selects
    // it
    vllmV1("vllm_no_reason", Shape.HELD, Shape.RISING);
    page(
        "vllm_no_reason",
        "vllm:request_success_total",
        Shape.RISING,
        "engine",
        "0",
        "model_name",
        "m");
    // NVIDIA NIM (capture nim-llm-2024-10-30): vLLM's V0 names unprefixed, only NIM's subset
    for (String g :
        List.of("num_requests_running", "num_requests_waiting", "gpu_cache_usage_perc")) {
      page("nim", g, false, "model_name", "m");
    }
    page("nim", "prompt_tokens_total", true, "model_name", "m");
    page("nim", "generation_tokens_total", true, "model_name", "m");
    // vLLM's request_success_total (by finished_reason) under NIM's name for it
    page("nim", "request_finish_total", true, "finished_reason", "length", "model_name", "m");
    // a vLLM server without its stat loggers (--disable-log-stats): its process families only
    page("vllm_no_stats", "process_cpu_seconds_total", true);
    // two generic names only (too few to tell NIM by): the backend label "nim" says vLLM
    page("nim_two", "num_requests_running", false, "model_name", "m");
    page("nim_two", "gpu_cache_usage_perc", false, "model_name", "m");
    // a V1 engine with traffic whose API server refuses requests at a queue cap (vLLM 0.32+,
    // --max-num-queued-reqs): the counter has reason and no engine or model_name; the reason
    // value is a stand-in, the sources read do not list the label's values
    vllmV1("vllm_admission", Shape.HELD, Shape.RISING);
    page("vllm_admission", "vllm:admission_rejections_total", true, "reason", "queue_cap");
    // a V1 engine finishing requests by stop, abort and repetition (vLLM's repetition detection),
    // none by length or error: every reason is a finished request, repetition a success
    vllmV1("vllm_finish", Shape.HELD, Shape.RISING);
    for (String reason : List.of("stop", "length", "abort", "error", "repetition")) {
      Shape shape =
          List.of("stop", "abort", "repetition").contains(reason) ? Shape.RISING : Shape.ZERO;
      page(
          "vllm_finish",
          "vllm:request_success_total",
          shape,
          "engine",
          "0",
          "finished_reason",
          reason,
          "model_name",
          "m");
    }
    // an idle SGLang 0.5.1: the scheduler gauges at 0, no family created on first use yet
    for (String g :
        List.of("num_running_reqs", "num_queue_reqs", "token_usage", "gen_throughput")) {
      page("sglang_idle", "sglang:" + g, Shape.ZERO, "engine_type", "unified", "model_name", "m");
      page(
          "sglang_idle_m2",
          "sglang:" + g,
          Shape.ZERO,
          "engine_type",
          "unified",
          "model_name",
          "m2");
    }
  }

  @ParameterizedTest(name = "{0} {1} filter={2}: {3} {4} {5}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # page             | panel               | filter      | status  | first reason | engine | says
          vllm_v1            | pd.ttft_user        |             | EMPTY   | NO_TARGETS   |        | no prefill/decode deployment: this panel shows only targets whose role is prefill or decode, and none is scraped
          vllm_v1            | pd.ttft_user        | namespace=n | EMPTY   | NO_TARGETS   |        | and none is scraped among those the filters select
          vllm_v1            | pod.ttft            | namespace=x | EMPTY   | NO_TARGETS   |        | no inference target matches the filters
          vllm_cut           | model.ttft          |             | EMPTY   | NOT_EXPOSED  | vllm   | vllm:time_to_first_token_seconds is missing from this endpoint although vllm:kv_cache_usage_perc is present and vLLM's Prometheus stat logger writes them together from start-up
          vllm_cut           | pod.tpot            |             | EMPTY   | NOT_EXPOSED  | vllm   | vllm:request_time_per_output_token_seconds exists from vLLM 0.11 and this target (vLLM 0.9.2–0.33) does not expose it: it runs an older release, or the page lacks it
          vllm_cut           | pod.scheduler       |             | EMPTY   | NOT_EXPOSED  | vllm   | vllm:num_requests_running is missing from this endpoint
          vllm_cut           | pod.scheduler       |             | EMPTY   | REMOVED      | vllm   | vllm:num_requests_swapped was deprecated in vLLM 0.8, hidden in 0.9 and removed in 0.10 (V1 does not swap) and nothing replaced it
          vllm_cut           | pod.scheduler       |             | EMPTY   | REMOVED      | vllm   | nothing replaced it: vLLM 0.9.2–0.33 has no swapped requests; from 0.9 until its removal in 0.10 it is hidden, not removed: --show-hidden-metrics-for-version=0.8 brings it back
          vllm_v1            | pod.scheduler       |             | OK      |              |        |
          vllm_v1            | model.tokens_per_gpu |            | EMPTY   | NO_TARGETS   | dcgm   | no dcgm-exporter target is scraped
          sglang_cut         | pod.scheduler       |             | PARTIAL | NOT_EXPOSED  | sglang | sglang:num_queue_reqs is missing from this endpoint although sglang:num_running_reqs is present and SGLang's scheduler writes them together at every log
          sglang_041         | model.qps           |             | EMPTY   | NOT_EXPOSED  | sglang | SGLang 0.3.5–0.4.1 does not expose finished requests; sglang:num_requests_total is exposed from SGLang 0.4.3
          vllm_v1_dcgm_no_fb | gpu.memory_used     |             | EMPTY   | BEHIND_FLAG  | dcgm   | DCGM_FI_DEV_FB_USED is in dcgm-exporter's default counters CSV but no exporter exports it: its counters CSV leaves it out; add DCGM_FI_DEV_FB_USED to the exporter's counters CSV (-f)
          vllm_v1_dcgm_util_pod | model.tokens_per_gpu |       | OK      |              |        |
          vllm_v1_dcgm_util_pod | gpu.nvlink_traffic |        | EMPTY   | NOT_EXPOSED  | dcgm   | DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL is in dcgm-exporter's default counters CSV but no exporter exports it: the GPUs may lack NVLink (DCGM reports the field blank and the exporter skips blank values), or the counters CSV leaves it out; if they have it, add DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL to the exporter's counters CSV (-f)
          vllm_v1_dcgm_prof_only | model.tokens_per_gpu |      | EMPTY   | BEHIND_FLAG  | dcgm   | no dcgm-exporter exports a per-GPU family to count GPUs by (DCGM_FI_DEV_FB_USED, DCGM_FI_DEV_FB_FREE, DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_POWER_USAGE, DCGM_FI_DEV_GPU_TEMP, DCGM_FI_DEV_SM_CLOCK)
          vllm_idle          | pod.ttft            |             | EMPTY   | NO_TRAFFIC   | vllm   | vllm:time_to_first_token_seconds did not change in the range: no traffic of that kind
          vllm_busy          | pod.ttft            |             | OK      |              |        |
          vllm_busy          | pod.ttft            | model_name=x | EMPTY  | NO_TARGETS   |        | no inference target matches the filters
          vllm_no_reason     | model.success_rate  |             | EMPTY   | NO_MATCH     | vllm   | vllm:request_success_total changes in the range but the panel's query selects none of its series
          sglang_idle        | model.qps           |             | EMPTY   | NO_TRAFFIC   | sglang | sglang:num_requests_total appears only once observed: no traffic yet
          sglang_cut         | model.qps           |             | EMPTY   | NOT_EXPOSED  | sglang | sglang:num_requests_total is created on first use and sglang:num_running_reqs is not 0 in the window, so requests were served: the page lacks it
          sglang_cut         | model.ttft          |             | EMPTY   | NOT_EXPOSED  | sglang | sglang:time_to_first_token_seconds is created on first use and sglang:num_running_reqs is not 0
          sglang_no_hits     | model.tokens        |             | OK      |              |        |
          sglang_no_hits     | pod.preemptions     |             | EMPTY   | NO_TRAFFIC   | sglang | sglang:num_retracted_requests_total appears only once observed: sglang:num_running_reqs is not 0 in the window, so requests were served, but none of that kind yet
          vllm_busy+sglang_idle_m2 | model.ttft    |             | PARTIAL | NO_TRAFFIC   | sglang | sglang:time_to_first_token_seconds appears only once observed: no traffic yet
          vllm_busy+sglang_idle_m2 | pod.ttft      |             | PARTIAL | NO_TRAFFIC   | sglang | sglang:time_to_first_token_seconds appears only once observed: no traffic yet
          vllm_busy+sglang_cut | model.ttft        |             | PARTIAL | NOT_EXPOSED  | sglang | sglang:time_to_first_token_seconds is created on first use
          vllm_idle+vllm_busy | model.ttft         |             | OK      |              |        |
          nim                | pod.preemptions     |             | EMPTY   | NOT_EXPOSED  | vllm   | NVIDIA NIM does not expose num_preemptions_total: it serves a fixed subset of vLLM's families, whatever vLLM release it embeds
          nim                | pod.queue_time      |             | EMPTY   | NOT_EXPOSED  | vllm   | NVIDIA NIM does not expose request_queue_time_seconds
          nim                | pod.scheduler       |             | PARTIAL | NOT_EXPOSED  | vllm   | NVIDIA NIM does not expose num_requests_swapped
          nim                | pod.kv_usage        |             | OK      |              |        |
          nim                | model.qps           |             | OK      |              |        |
          nim                | pod.finish_reasons  |             | OK      |              |        |
          nim                | pod.spec_acceptance |             | EMPTY   | NOT_EXPOSED  | vllm   | NVIDIA NIM does not expose spec_decode_num_accepted_tokens_total
          nim                | pod.sleep           |             | EMPTY   | NOT_EXPOSED  | vllm   | NVIDIA NIM does not expose engine_sleep_state
          nim_two            | pod.kv_usage        |             | OK      |              |        |
          nim_two            | pod.preemptions     |             | EMPTY   | NOT_EXPOSED  | vllm   | NVIDIA NIM does not expose num_preemptions_total
          vllm_no_stats      | pod.preemptions     |             | EMPTY   | NOT_EXPOSED  | vllm   | check that stat logging is on (no --disable-log-stats) and that the scrape reaches its /metrics
          vllm_admission     | pod.admission_rejections |        | OK      |              |        |
          vllm_admission     | causal_model.admission_rejections | | OK    |              |        |
          vllm_admission     | pod.admission_rejections | model_name=x | EMPTY | NO_TARGETS |     | no inference target matches the filters
          vllm_busy          | pod.admission_rejections |        | EMPTY   | NOT_EXPOSED  | vllm   | vllm:admission_rejections_total exists from vLLM 0.32 and this target (vLLM 0.9.2–0.33) does not expose it
          sglang_041         | pod.admission_rejections |        | EMPTY   | NOT_EXPOSED  | sglang | SGLang does not expose requests rejected at admission in any release
          """)
  void theFirstReasonIsTheRealOne(
      String page,
      String panel,
      String filter,
      String status,
      String kind,
      String engine,
      String says) {
    Filters filters =
        filter == null
            ? Filters.NONE
            : Filters.of(Map.of(filter.split("=")[0], filter.split("=")[1]));
    PanelResult p = render(page, panel, filters);
    assertThat(p.status())
        .as(panel + " " + p.reasons())
        .isEqualTo(PanelResult.Status.valueOf(status));
    if (kind == null) {
      assertThat(p.reasons()).isEmpty();
      return;
    }
    // the row's reason is there, and the panel never guesses "no traffic" beside it
    EmptyReason first =
        p.reasons().stream()
            .filter(r -> r.kind() == EmptyReason.Kind.valueOf(kind))
            .filter(r -> r.engine().equals(engine == null ? "" : engine))
            .filter(r -> r.message().contains(says))
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        panel + ": no " + kind + " \"" + says + "\" in " + p.reasons()));
    if (first.engine().equals("dcgm")) {
      assertThat(p.reasons().get(0)).as("a GPU count's reason comes first").isEqualTo(first);
    }
    if (first.kind() != EmptyReason.Kind.NO_TRAFFIC) {
      assertThat(p.reasons()).noneMatch(r -> r.kind() == EmptyReason.Kind.NO_TRAFFIC);
    }
  }

  /** 10 refusals a scrape, every 15 s: the pod's and its model's rate, model from the pod. */
  @ParameterizedTest
  @CsvSource({
    "pod.admission_rejections, pod, p",
    "causal_model.admission_rejections, model_name, m"
  })
  void admissionRejectionsAreTheCountersRate(String panel, String label, String value) {
    PanelResult p = render("vllm_admission", panel, Filters.NONE);
    PanelResult.SeriesData s = p.queries().get(0).series().get(0);
    assertThat(p.queries().get(0).series()).hasSize(1);
    assertThat(s.labels()).containsEntry(label, value);
    assertThat(s.last()).isCloseTo(10.0 / 15, org.assertj.core.api.Assertions.within(1e-9));
  }

  /**
   * Requests/s counts every finish reason and success rate counts stop, length and repetition as
   * successes (docs/dashboard.md, success rate): three reasons at 10 a scrape are 2 requests/s, two
   * of them successes.
   */
  @ParameterizedTest
  @CsvSource({"model.qps, 2.0", "model.success_rate, 0.6666666666666666"})
  void everyFinishReasonIsAFinishedRequest(String panel, double want) {
    PanelResult p = render("vllm_finish", panel, Filters.NONE);
    assertThat(p.queries().get(0).series()).as("%s", p.reasons()).hasSize(1);
    PanelResult.SeriesData s = p.queries().get(0).series().get(0);
    assertThat(s.labels()).containsEntry("model_name", "m");
    assertThat(s.last()).isCloseTo(want, org.assertj.core.api.Assertions.within(1e-9));
  }

  private static PanelResult render(String page, String panel, Filters filters) {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    boolean dcgm = page.contains("_dcgm_");
    String inference = dcgm ? page.substring(0, page.indexOf("_dcgm_")) : page;
    // "a+b": a fleet of one target per page, pods p, p2, ...
    String[] fleet = inference.split("\\+");
    for (int i = 0; i < fleet.length; i++) {
      String backend =
          fleet[i].startsWith("sglang") ? "sglang" : fleet[i].startsWith("nim") ? "nim" : "vllm";
      write(a, fleet[i], backend, i == 0 ? "p" : "p" + (i + 1), "inference");
    }
    if (dcgm) {
      write(a, page, "dcgm", "exporter", "dcgm");
    }
    a.commit();
    DashboardService s =
        new DashboardService(
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)),
            Catalog.builtIn());
    return s.render(
            new DashboardRequest(filters, 0.95, T0, T0 + 600_000, 15_000, "5m", List.of(panel)))
        .get(0);
  }

  private static void write(Appender a, String page, String backend, String pod, String job) {
    Map<String, String> target =
        Map.of(
            "job",
            job,
            "instance",
            pod + ":8000",
            "backend",
            backend,
            "namespace",
            "n",
            "pod",
            pod);
    for (int i = 0; i <= 40; i++) {
      long t = T0 + i * 15_000L;
      a.append(0, labels("up", target, Map.of()), t, 1);
      for (Sample s : PAGES.get(page)) {
        double v = s.shape() == Shape.RISING ? 10.0 * i : s.shape() == Shape.HELD ? 1 : 0;
        a.append(0, labels(s.name(), target, s.labels()), t, v);
      }
    }
  }

  private static Labels labels(String name, Map<String, String> target, Map<String, String> own) {
    List<String> kv = new ArrayList<>(List.of("__name__", name));
    target.forEach(
        (k, v) -> {
          kv.add(k);
          kv.add(v);
        });
    own.forEach(
        (k, v) -> {
          kv.add(k);
          kv.add(v);
        });
    return Labels.of(kv.toArray(String[]::new));
  }
}
