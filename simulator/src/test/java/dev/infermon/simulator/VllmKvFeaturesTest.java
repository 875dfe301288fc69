package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.vllm.VllmKvResidency;
import dev.infermon.simulator.vllm.VllmMetrics;
import dev.infermon.simulator.vllm.VllmNixl;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * vLLM's NIXL connector families on a prefill/decode pair and the {@code --kv-cache-metrics}
 * histograms: shaped as vLLM registers them (names, types, labels, HELP, buckets from
 * nixl/stats.py @ bd33ba3e and buckets.py @ 139b1c3f), and counting what the engines did.
 */
class VllmKvFeaturesTest {
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final String DECODE = "vllm-pd-llama-3-1-8b-instruct-decode-0";
  private static final String PREFILL = "vllm-pd-llama-3-1-8b-instruct-prefill-0";
  private static final FleetConfigBuilder SMALL =
      FleetConfig.builder()
          .vllmPods(1)
          .legacyVllmPods(0)
          .sglangPods(0)
          .sglangGatewayPods(0)
          .prefillDecode(true)
          .models(List.of(MODEL));

  private static Fleet fleet;

  @BeforeAll
  static void run() {
    fleet = Fleet.create(SMALL.kvCacheMetrics(true).build(), 1_767_225_600_000L);
    fleet.advance(Duration.ofMinutes(3));
  }

  private static Page page(Fleet f, String pod) {
    return PageChecker.strict(f.render(pod).orElseThrow());
  }

  private static VllmMetrics engine(Fleet f, String pod) {
    return ((VllmPod) f.pod(pod)).metrics(0);
  }

  @Test
  void bothSidesOfThePairHaveTheNixlFamiliesAsVllmRegistersThem() {
    for (String pod : List.of(DECODE, PREFILL)) {
      Page p = page(fleet, pod);
      Family xfer = p.family("vllm:nixl_xfer_time_seconds");
      assertThat(xfer.type).isEqualTo("histogram");
      assertThat(String.join(",", xfer.labelNames())).isEqualTo("engine,model_name");
      assertThat(xfer.help)
          .isEqualTo("Histogram of transfer duration for NIXL KV Cache transfers.");
      assertThat(xfer.buckets())
          .containsExactly(
              "0.005", "0.01", "0.025", "0.05", "0.075", "0.1", "0.2", "0.3", "0.5", "0.75", "1.0",
              "5.0", "+Inf");
      assertThat(p.family("vllm:nixl_post_time_seconds").buckets()).first().isEqualTo("0.001");
      List<String> bytes = p.family("vllm:nixl_bytes_transferred").buckets();
      assertThat(bytes).hasSize(13).startsWith("2048.0", "8192.0");
      assertThat(bytes.get(11)).isEqualTo("8.589934592e+09");
      assertThat(p.family("vllm:nixl_num_descriptors").buckets()).hasSize(15);
      for (String c :
          List.of(
              "vllm:nixl_num_failed_transfers_total",
              "vllm:nixl_num_failed_notifications_total",
              "vllm:nixl_num_kv_expired_reqs_total")) {
        assertThat(p.family(c).type).as(c).isEqualTo("counter");
      }
    }
  }

  @Test
  void theDecodeSideReadsEveryPromptsBlocksAndThePrefillSideNothing() {
    VllmNixl d = engine(fleet, DECODE).nixl();
    VllmNixl p = engine(fleet, PREFILL).nixl();
    assertThat(d.transfers()).isPositive();
    assertThat(p.transfers()).isZero();
    assertThat(p.bytesMoved()).isZero();
    // whole blocks of the fixed shape's KV, so a multiple of one block's bytes (16 tokens)
    double block = 16 * 32 * 8 * 128 * 2 * 2;
    double blocks = d.bytesMoved() / block;
    assertThat(blocks).isCloseTo(Math.rint(blocks), within(1e-6));
    assertThat(d.transferSeconds() / d.transfers()).isBetween(0.005, 1.0);
  }

  @Test
  void kvCacheMetricsAddTheResidencyHistogramsWithVllmsBuckets() {
    Page p = page(fleet, "vllm-llama-3-1-8b-instruct-0");
    for (String n :
        List.of(
            "vllm:kv_block_lifetime_seconds",
            "vllm:kv_block_idle_before_evict_seconds",
            "vllm:kv_block_reuse_gap_seconds")) {
      Family f = p.family(n);
      assertThat(f.type).as(n).isEqualTo("histogram");
      assertThat(f.help)
          .as(n)
          .endsWith("Sampled metrics (controlled by --kv-cache-metrics-sample).");
      List<String> b = f.buckets();
      assertThat(b).as(n).hasSize(22).contains("1800.0").doesNotContain("3600.0");
    }
    VllmKvResidency k = engine(fleet, "vllm-llama-3-1-8b-instruct-0").kvResidency();
    assertThat(k.evicted()).isPositive();
    assertThat(k.lifetimeSeconds() / k.evicted()).isPositive();
  }

  @Test
  void withoutTheConnectorOrTheFlagTheFamiliesAreAbsent() {
    Fleet off = Fleet.create(SMALL.nixl(false).kvCacheMetrics(false).build(), 1_767_225_600_000L);
    off.advance(Duration.ofSeconds(30));
    for (String pod : List.of(DECODE, PREFILL, "vllm-llama-3-1-8b-instruct-0")) {
      String text = off.render(pod).orElseThrow();
      assertThat(text).as(pod).doesNotContain("vllm:nixl_").doesNotContain("vllm:kv_block_");
    }
  }
}
