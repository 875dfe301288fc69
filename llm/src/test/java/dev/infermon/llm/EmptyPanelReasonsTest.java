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
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.vllm.VllmRelease;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A fleet of one vLLM 0.4.3 (V0) pod and one SGLang pod, with dcgm-exporter's default counters (no
 * SM active): each panel is empty for the right reason, or has data.
 */
class EmptyPanelReasonsTest {
  private static final Map<String, PanelResult> panels = new HashMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(1)
            .legacyRelease(VllmRelease.V0_4_3)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of("meta-llama/Llama-3.1-8B-Instruct"))
            .smProfilingFields(false)
            .build();
    SimulatedFleet f = new SimulatedFleet(config, false).run(Duration.ofMinutes(8));
    DashboardService s = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    for (PanelResult p : s.render(DashboardRequest.of(Filters.NONE, f.now() - 120_000, f.now()))) {
      panels.put(p.panel().id(), p);
    }
  }

  @ParameterizedTest(name = "{0}: {1} {2} {3}")
  @CsvSource({
    // panel,                  status,  reason kind,  engine, version or flag
    "pod.waiting_by_reason,    EMPTY,   NOT_EXPOSED,  vllm,   0.24",
    "pod.waiting_by_reason,    EMPTY,   NOT_EXPOSED,  sglang, ",
    "pod.finish_reasons,       PARTIAL, NOT_EXPOSED,  sglang, ",
    "pod.tpot,                 PARTIAL, NOT_EXPOSED,  vllm,   0.11",
    "pod.phases,               EMPTY,   NOT_EXPOSED,  vllm,   0.6",
    "pod.scheduler,            PARTIAL, NOT_EXPOSED,  sglang, ",
    "model.prefix_cache_hit_rate, PARTIAL, NOT_EXPOSED, vllm, 0.8",
    "pod.queue_time,           PARTIAL, NOT_EXPOSED,  vllm,   0.6",
    "gpu.sm_active,            EMPTY,   BEHIND_FLAG,  dcgm,   add DCGM_FI_PROF_SM_ACTIVE to the counters CSV (commented out by default)",
    "pd.ttft_user,             EMPTY,   NO_TARGETS,   '',     ",
    "model.success_rate,       PARTIAL, NOT_EXPOSED,  vllm,   0.8",
    // vLLM 0.4.3 has no LMCache connector to turn on: the release that brings one, not a flag
    "pod.kv_offload_hit_rate,  EMPTY,   NOT_EXPOSED,  vllm,   0.8",
  })
  void panelSaysWhy(String id, String status, String kind, String engine, String versionOrFlag) {
    PanelResult p = panels.get(id);
    assertThat(p.status()).as(id + " " + p.reasons()).isEqualTo(PanelResult.Status.valueOf(status));
    assertThat(p.reasons())
        .as(id)
        .anySatisfy(
            r -> {
              assertThat(r.kind()).isEqualTo(EmptyReason.Kind.valueOf(kind));
              assertThat(r.engine()).isEqualTo(engine);
              if (versionOrFlag != null) {
                assertThat(r.kind() == EmptyReason.Kind.BEHIND_FLAG ? r.flag() : r.version())
                    .isEqualTo(versionOrFlag);
              }
            });
  }

  /**
   * The KV-offload (LMCache) panels over one pod of each engine, none with LMCache: one reason per
   * engine, true of that engine (vLLM's says how LMCache is turned on, NIM's that its subset has
   * none, SGLang's where its LMCache lives, the others' that LMCache has no integration with them).
   */
  @ParameterizedTest(name = "{0}: {1} {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        // panel                | engine   | kind        | the reason says
        "pod.kv_offload_hit_rate   | lmcache  | BEHIND_FLAG | no LMCache on these vLLM pods: LMCache inside vLLM's processes (LMCacheConnectorV1)",
        "pod.kv_offload_hit_rate   | vllm     | NOT_EXPOSED | NVIDIA NIM serves a fixed subset of vLLM's families and LMCache's are not in it",
        "pod.kv_offload_hit_rate   | sglang   | NOT_EXPOSED | SGLang loads LMCache through its own radix cache",
        "pod.kv_offload_hit_rate   | tgi      | NOT_EXPOSED | Hugging Face TGI is not among them",
        "pod.kv_offload_hit_rate   | llamacpp | NOT_EXPOSED | llama.cpp is not among them",
        "pod.kv_offload_hit_rate   | trtllm   | NOT_EXPOSED | TensorRT-LLM can run LMCache through its KV cache connector",
        "pod.kv_offload_tokens     | lmcache  | BEHIND_FLAG | no LMCache on these vLLM pods",
        "pod.kv_offload_tokens     | vllm     | NOT_EXPOSED | NVIDIA NIM serves a fixed subset",
        "pod.kv_offload_tokens     | sglang   | NOT_EXPOSED | SGLang loads LMCache",
        "model.kv_offload_hit_rate | lmcache  | BEHIND_FLAG | no LMCache on these vLLM pods",
        "model.kv_offload_hit_rate | trtllm   | NOT_EXPOSED | no TensorRT-LLM family counts KV offload and LMCache's own families",
      })
  void kvOffloadSaysOneTrueReasonPerEngine(String id, String engine, String kind, String says) {
    PanelResult p = everyEngine().get(id);
    assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
    List<EmptyReason> mine = p.reasons().stream().filter(r -> r.engine().equals(engine)).toList();
    assertThat(mine).as(id + " " + p.reasons()).hasSize(1);
    assertThat(mine.get(0).kind()).isEqualTo(EmptyReason.Kind.valueOf(kind));
    assertThat(mine.get(0).message()).contains(says);
    if (mine.get(0).kind() == EmptyReason.Kind.BEHIND_FLAG) {
      assertThat(mine.get(0).flag())
          .contains("{\"kv_connector\":\"LMCacheConnectorV1\",\"kv_role\":\"kv_both\"}")
          .contains("PROMETHEUS_MULTIPROC_DIR");
    }
  }

  private static Map<String, PanelResult> everyEngine;

  /** One current vLLM pod, one NIM, one SGLang, TGI, llama.cpp and TensorRT-LLM; no LMCache. */
  private static synchronized Map<String, PanelResult> everyEngine() {
    if (everyEngine == null) {
      FleetConfig config =
          FleetConfig.builder()
              .vllmPods(1)
              .dataParallelPods(0)
              .legacyVllmPods(0)
              .sglangPods(1)
              .sglangGatewayPods(0)
              .nimPods(1)
              .tgiPods(1)
              .llamacppPods(1)
              .trtllmPods(1)
              .prefillDecode(false)
              .lmcachePods(0)
              .models(List.of("meta-llama/Llama-3.1-8B-Instruct"))
              .build();
      SimulatedFleet f = new SimulatedFleet(config, false).run(Duration.ofMinutes(3));
      DashboardService s = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
      Map<String, PanelResult> out = new HashMap<>();
      List<String> ids =
          List.of("pod.kv_offload_hit_rate", "pod.kv_offload_tokens", "model.kv_offload_hit_rate");
      long now = f.now();
      for (PanelResult p :
          s.render(
              new DashboardRequest(Filters.NONE, 0.95, now - 120_000, now, 15_000, "5m", ids))) {
        out.put(p.panel().id(), p);
      }
      everyEngine = out;
    }
    return everyEngine;
  }

  @ParameterizedTest
  @CsvSource({
    "model.qps",
    "model.e2e",
    "model.ttft",
    "model.tokens_per_gpu",
    "pod.kv_usage",
    "gpu.tensor_active",
    "gpu.memory_used",
    "causal_pod.ttft_p95"
  })
  void panelsBothEnginesHaveCarryData(String id) {
    assertThat(panels.get(id).status())
        .as(id + " " + panels.get(id).reasons())
        .isEqualTo(PanelResult.Status.OK);
  }

  @Test
  void targetDownIsSaidWhenOnlyUpRemains() {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    long t = SimulatedFleet.START;
    for (int i = 0; i < 10; i++) {
      a.append(
          0,
          Labels.of(
              "__name__",
              "up",
              "job",
              "vllm",
              "instance",
              "p:8000",
              "backend",
              "vllm",
              "namespace",
              "n",
              "pod",
              "p"),
          t + i * 15_000L,
          0);
    }
    a.commit();
    DashboardService s =
        new DashboardService(
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)),
            Catalog.builtIn());
    PanelResult p =
        s.render(
                new DashboardRequest(
                    Filters.NONE, 0.95, t, t + 135_000, 15_000, "5m", List.of("pod.ttft")))
            .get(0);
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons())
        .extracting(EmptyReason::kind)
        .containsExactly(EmptyReason.Kind.TARGET_DOWN);
  }
}
