package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.vllm.VllmKvResidency;
import dev.infermon.simulator.vllm.VllmNixl;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The KV-transfer panels of the prefill/decode view and the KV block residency panel against the
 * simulator's own counts: a vLLM prefill/decode pair whose decode side reads every request's KV
 * over the NIXL connector, and a current vLLM pod with {@code --kv-cache-metrics}. The truth is
 * what each engine's {@link VllmNixl} and {@link VllmKvResidency} observed; the panels read it back
 * through the scraped pages and PromQL.
 */
class KvTransferTest {
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final String DECODE = "vllm-pd-llama-3-1-8b-instruct-decode-0";
  private static final String PREFILL = "vllm-pd-llama-3-1-8b-instruct-prefill-0";
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final FleetConfigBuilder SMALL =
      FleetConfig.builder()
          .vllmPods(1)
          .legacyVllmPods(0)
          .sglangPods(0)
          .sglangGatewayPods(0)
          .prefillDecode(true)
          .models(List.of(MODEL));

  private static SimulatedFleet fleet;

  /** Per pod: [bytes moved, transfers, transfer seconds, failed transfers, evicted, lifetimes]. */
  private static VllmTruth truth;

  @BeforeAll
  static void run() {
    fleet = new SimulatedFleet(SMALL.kvCacheMetrics(true).build(), false);
    truth =
        new VllmTruth(
            fleet,
            Duration.ofMinutes(6),
            m -> {
              VllmNixl n = m.nixl();
              VllmKvResidency k = m.kvResidency();
              return new double[] {
                n == null ? 0 : n.bytesMoved(),
                n == null ? 0 : n.transfers(),
                n == null ? 0 : n.transferSeconds(),
                n == null ? 0 : n.failedTransfers(),
                k == null ? 0 : k.evicted(),
                k == null ? 0 : k.lifetimeSeconds()
              };
            });
  }

  private static Map<String, Double> panel(String id, int query) {
    return PanelValues.panel(fleet.backend, fleet.now(), id, query, Filters.NONE);
  }

  @Test
  void bytesPerSecondAreTheBytesTheDecodeSideRead() {
    double want = truth.delta(DECODE)[0] / 285.0;
    assertThat(want).as("the decode side read KV").isPositive();
    Map<String, Double> p = panel("pd.kv_transfer_bytes", 0);
    assertThat(p.get("decode")).isCloseTo(want, within(want * 1e-9));
    // pull mode: the prefill side registers the families and posts no transfer
    assertThat(p.get("prefill")).isZero();
  }

  @Test
  void meanTransferTimeIsTheTransfersSecondsOverTheirCount() {
    double[] d = truth.delta(DECODE);
    assertThat(d[1]).as("transfers in the window").isGreaterThan(10);
    double want = d[2] / d[1];
    assertThat(panel("pd.kv_transfer_time", 0).get("decode")).isCloseTo(want, within(want * 1e-9));
    double q = panel("pd.kv_transfer_time", 1).get("decode");
    assertThat(q).as("a quantile within the buckets").isBetween(0.0, 5.0).isPositive();
  }

  @Test
  void failedTransfersPerSecondAreTheFailuresCounted() {
    double want = truth.delta(DECODE)[3] / 285.0;
    assertThat(want).as("some transfer failed in the window").isPositive();
    Map<String, Double> p = panel("pd.kv_transfer_failures", 0);
    assertThat(p.get("decode")).isCloseTo(want, within(want * 1e-9));
    assertThat(p.get("prefill")).isZero();
  }

  @Test
  void meanBlockLifetimeIsTheSampledBlocksLifetimesOverTheirCount() {
    Map<String, Double> p = panel("pod.kv_block_residency", 0);
    assertThat(p).containsKeys(DECODE, PREFILL);
    for (String pod : truth.pods()) {
      double[] d = truth.delta(pod);
      assertThat(d[4]).as(pod + " evicted sampled blocks").isPositive();
      double want = d[5] / d[4];
      assertThat(p.get(pod)).as(pod).isCloseTo(want, within(want * 1e-9));
    }
    // no block is touched after its allocation: idle before eviction is the lifetime
    Map<String, Double> idle = panel("pod.kv_block_residency", 2);
    p.forEach((pod, v) -> assertThat(idle.get(pod)).as(pod).isCloseTo(v, within(v * 1e-9)));
  }

  @Test
  void withoutTheConnectorAndTheFlagThePanelsSayWhich() {
    SimulatedFleet off = new SimulatedFleet(SMALL.nixl(false).kvCacheMetrics(false).build(), false);
    off.run(Duration.ofMinutes(3));
    DashboardService s = new DashboardService(QueryStack.of(off.backend), CATALOG);
    Map<String, PanelResult> panels = new HashMap<>();
    for (PanelResult p :
        s.render(DashboardRequest.of(Filters.NONE, off.now() - 300_000, off.now()))) {
      panels.put(p.panel().id(), p);
    }
    Map<String, String> flags =
        Map.of(
            "pd.kv_transfer_bytes", "--kv-transfer-config (NixlConnector)",
            "pd.kv_transfer_time", "--kv-transfer-config (NixlConnector)",
            "pd.kv_transfer_failures", "--kv-transfer-config (NixlConnector)",
            "pod.kv_block_residency", "--kv-cache-metrics");
    flags.forEach(
        (id, flag) -> {
          PanelResult p = panels.get(id);
          assertThat(p.status()).as(id).isEqualTo(PanelResult.Status.EMPTY);
          List<EmptyReason> vllm =
              p.reasons().stream().filter(r -> r.engine().equals("vllm")).toList();
          assertThat(vllm)
              .as(id)
              .isNotEmpty()
              .allSatisfy(
                  r -> {
                    assertThat(r.kind()).isEqualTo(EmptyReason.Kind.BEHIND_FLAG);
                    assertThat(r.flag()).isEqualTo(flag);
                  });
        });
  }
}
