package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An NVIDIA NIM pod (vLLM's names without prefix) and a trtllm-serve 1.0 pod (the same names for
 * TTFT, e2e latency and finished requests, with {@code engine_type}: trtllm.yaml's unprefixed
 * spelling) stored side by side, each serving its own model. No capture of a 1.0 page exists
 * (docs/catalog.md), so the pages are stored series in the layout of #5785's sample page and of the
 * NIM capture, with counters rising at known rates: each panel must give each pod and model its own
 * engine's value, and each engine's query must read its own pod only, once. By name alone vLLM's
 * NIM selectors read the TensorRT-LLM pod as vLLM's and TensorRT-LLM's own spelling was never
 * queried, so its finished requests (request_success_total, which NIM calls request_finish_total)
 * were counted nowhere.
 */
class NimTrtllmApartTest {
  private static final long T0 = SimulatedFleet.START;
  private static final long SCRAPE = 15_000L;
  private static final int SCRAPES = 41;
  private static final long END = T0 + (SCRAPES - 1) * SCRAPE;
  private static final Catalog CATALOG = Catalog.builtIn();

  private static MemoryStorage storage;
  private static DashboardService service;

  /** Per scrape: NIM finishes 6 by stop and fails 2; TRT-LLM 1.0 finishes 30 by stop. */
  @BeforeAll
  static void store() {
    storage = new MemoryStorage();
    Appender a = storage.appender();
    Map<String, String> nim = target("nim-0", "nim");
    Map<String, String> trt = target("trt-0", "trtllm");
    for (int i = 0; i < SCRAPES; i++) {
      long t = T0 + i * SCRAPE;
      a.append(0, labels("up", nim), t, 1);
      a.append(0, labels("up", trt), t, 1);
      Map<String, String> llama = with(nim, "model_name", "llama");
      a.append(0, labels("num_requests_running", llama), t, 3);
      a.append(0, labels("num_requests_waiting", llama), t, 0);
      a.append(0, labels("gpu_cache_usage_perc", llama), t, 0.5);
      a.append(
          0, labels("request_finish_total", with(llama, "finished_reason", "stop")), t, 6.0 * i);
      a.append(0, labels("request_failure_total", llama), t, 2.0 * i);
      // NIM: each of its 8 requests a scrape waits 2 s for its first token, 4 s to the end
      histogram(a, "time_to_first_token_seconds", llama, t, 8 * i, 16.0 * i, "2.5");
      histogram(a, "e2e_request_latency_seconds", llama, t, 8 * i, 32.0 * i, "5.0");
      Map<String, String> qwen = with(with(trt, "engine_type", "trtllm"), "model_name", "qwen");
      a.append(
          0, labels("request_success_total", with(qwen, "finished_reason", "stop")), t, 30.0 * i);
      // TRT-LLM 1.0: 30 requests a scrape, 0.05 s to the first token, 0.5 s to the end
      histogram(a, "time_to_first_token_seconds", qwen, t, 30 * i, 1.5 * i, "0.1");
      histogram(a, "e2e_request_latency_seconds", qwen, t, 30 * i, 15.0 * i, "1.0");
    }
    a.commit();
    service =
        new DashboardService(
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)), CATALOG);
  }

  @Test
  void eachPodIsDetectedAsItsEngineInTheUnprefixedSpelling() {
    Map<String, String> engines = new HashMap<>();
    for (TargetInventory t : service.inventory(END).targets()) {
      assertThat(t.detection().prefix()).as(t.targetLabels().toString()).isEmpty();
      engines.put(t.label("pod"), t.engine());
    }
    assertThat(engines)
        .containsExactlyInAnyOrderEntriesOf(Map.of("nim-0", "vllm", "trt-0", "trtllm"));
  }

  /**
   * Each panel's value per model or pod, from the stored counters: NIM's 8 finished requests and 2
   * failures a scrape, TRT-LLM 1.0's 30 successes; means are _sum over _count; the p95 of NIM's
   * requests, all in (1, 2.5], interpolates to 2.425 s, TRT-LLM's, all within 0.1 s, to 0.095 s.
   */
  @ParameterizedTest(name = "{0} query {1}: {2}")
  @CsvSource({
    "model.qps,          0, llama, 0.5333333333333333",
    "model.qps,          0, qwen,  2.0",
    "model.success_rate, 0, llama, 0.75",
    "model.success_rate, 0, qwen,  1.0",
    "model.ttft,         1, llama, 2.425",
    "model.ttft,         1, qwen,  0.095",
    "pod.ttft,           0, nim-0, 2.0",
    "pod.ttft,           0, trt-0, 0.05",
    "pod.e2e,            0, nim-0, 4.0",
    "pod.e2e,            0, trt-0, 0.5",
  })
  void eachPanelGivesEachEngineItsOwnValue(String panel, int query, String key, double want) {
    PanelResult p =
        service
            .render(new DashboardRequest(Filters.NONE, 0.95, T0, END, SCRAPE, "5m", List.of(panel)))
            .get(0);
    Map<String, Double> values = last(p.queries().get(query).series(), panel);
    assertThat(values).as("%s %s", panel, p.reasons()).containsKey(key);
    assertThat(values.get(key)).isCloseTo(want, within(1e-9));
  }

  /**
   * Each engine's branch of a query reads its own pod only: compiled for vLLM alone it finds the
   * NIM pod, for TensorRT-LLM alone the 1.0 pod, so neither is counted under the other engine.
   */
  @ParameterizedTest(name = "{0} for {1}: {2}")
  @CsvSource({
    "pod.ttft,   vllm,   nim-0",
    "pod.ttft,   trtllm, trt-0",
    "pod.e2e,    vllm,   nim-0",
    "pod.e2e,    trtllm, trt-0",
    "pod.finish_reasons, vllm,   nim-0",
    "pod.finish_reasons, trtllm, trt-0",
  })
  void eachEnginesQueryReadsItsOwnPodOnly(String panel, String engine, String pod) {
    Inventory inv = service.inventory(END);
    Presence fleet = Presence.of(inv, CATALOG);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            (e, v, m) -> e.engine().equals(engine) && fleet.has(e, v, m));
    Panel p = Dashboards.panel(panel);
    String q =
        new PromqlCompiler(CATALOG)
            .compile(p.queries().get(0).measure(), p.level(), o)
            .orElseThrow();
    Vector v =
        (Vector)
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS))
                .instantQuery(q, END)
                .value();
    List<String> pods = new ArrayList<>();
    for (Sample s : v.samples()) {
      pods.add(s.labels().get("pod"));
    }
    assertThat(pods).as(q).isNotEmpty().allMatch(pod::equals);
  }

  private static Map<String, Double> last(List<PanelResult.SeriesData> series, String panel) {
    String key = panel.startsWith("pod.") ? "pod" : "model_name";
    Map<String, Double> out = new HashMap<>();
    for (PanelResult.SeriesData s : series) {
      assertThat(out.put(s.labels().get(key), s.last())).as(key + " once").isNull();
    }
    return out;
  }

  /** A histogram whose {@code count} observations are all in the bucket ending at {@code le}. */
  private static void histogram(
      Appender a, String name, Map<String, String> l, long t, double count, double sum, String le) {
    for (String b : List.of("0.1", "1.0", "2.5", "5.0", "+Inf")) {
      boolean in = b.equals("+Inf") || Double.parseDouble(b) >= Double.parseDouble(le);
      a.append(0, labels(name + "_bucket", with(l, "le", b)), t, in ? count : 0);
    }
    a.append(0, labels(name + "_count", l), t, count);
    a.append(0, labels(name + "_sum", l), t, sum);
  }

  private static Map<String, String> target(String pod, String backend) {
    Map<String, String> t = new LinkedHashMap<>();
    t.put("job", "inference");
    t.put("instance", pod + ":8000");
    t.put("backend", backend);
    t.put("namespace", "n");
    t.put("pod", pod);
    return t;
  }

  private static Map<String, String> with(Map<String, String> l, String k, String v) {
    Map<String, String> out = new LinkedHashMap<>(l);
    out.put(k, v);
    return out;
  }

  private static Labels labels(String name, Map<String, String> l) {
    List<String> kv = new ArrayList<>(List.of("__name__", name));
    l.forEach(
        (k, v) -> {
          kv.add(k);
          kv.add(v);
        });
    return Labels.of(kv.toArray(String[]::new));
  }
}
