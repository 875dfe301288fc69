package dev.infermon.simulator.vllm;

import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Families;
import dev.infermon.simulator.text.Histogram;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What one vLLM engine's KV-cache residency sampling reports ({@code --kv-cache-metrics}): {@code
 * KVCacheMetricsCollector} (vllm-project/vllm vllm/v1/core/kv_cache_metrics.py @ 0ad8e2ad) samples
 * a share of the blocks allocated and, at a sampled block's eviction, its lifetime (allocation to
 * eviction), idle time (last access to eviction) and the gaps between its last accesses.
 *
 * <p>The simulator has no block pool: a request's blocks are allocated when it is scheduled and
 * evicted when it releases them (it finishes or is preempted), and nothing touches them in between
 * (vLLM touches a block when a prefix-cache lookup reuses it; the simulator's cached prefixes are
 * not blocks it tracks). So a sampled block's idle time equals its lifetime and it has no reuse
 * gap: the reuse-gap histogram stays at zero. Sampling is deterministic: every {@link
 * #SAMPLE_EVERY}-th block allocated, vLLM's default {@code --kv-cache-metrics-sample} of 0.01. Not
 * thread-safe.
 */
public final class VllmKvResidency {
  /** One block in this many is sampled. */
  public static final int SAMPLE_EVERY = 100;

  /** KV_CACHE_RESIDENCY_BUCKETS (vllm/v1/metrics/buckets.py @ 139b1c3f). */
  static final double[] BUCKETS = {
    0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600,
    1200, 1800
  };

  private static final String SAMPLED_TAIL =
      " Sampled metrics (controlled by --kv-cache-metrics-sample).";

  final Histogram lifetime = new Histogram(BUCKETS);
  final Histogram idle = new Histogram(BUCKETS);
  final Histogram reuseGap = new Histogram(BUCKETS);
  private long allocated;

  /** Request id to {birth time, sampled blocks} for the requests holding sampled blocks. */
  private final Map<Long, double[]> holding = new HashMap<>();

  /** {@code r} was scheduled at {@code now} and got its blocks. */
  void scheduled(Request r, double now) {
    long before = allocated;
    allocated += r.blocks();
    long sampled = allocated / SAMPLE_EVERY - before / SAMPLE_EVERY;
    if (sampled > 0) {
      holding.put(r.id(), new double[] {now, sampled});
    }
  }

  /** {@code r} released its blocks at {@code now}: its sampled blocks are evicted. */
  void released(Request r, double now) {
    double[] h = holding.remove(r.id());
    if (h == null) {
      return;
    }
    double age = now - h[0];
    lifetime.observe(age, (long) h[1], age * h[1]);
    idle.observe(age, (long) h[1], age * h[1]); // never touched after allocation
  }

  /** Sampled blocks evicted so far (the lifetime histogram's count). */
  public long evicted() {
    return lifetime.count();
  }

  /** Their lifetimes added up, seconds. */
  public double lifetimeSeconds() {
    return lifetime.sum();
  }

  /**
   * The three histograms, registered by PrometheusStatLogger only with the flag, one child per
   * engine; HELP texts as in vllm/v1/metrics/loggers.py.
   */
  static void render(
      List<VllmPage.Engine> engines,
      Families f,
      CreatedClock created,
      Function<VllmPage.Engine, String[]> labels) {
    histogram(
        f,
        engines,
        created,
        labels,
        "vllm:kv_block_lifetime_seconds",
        "Histogram of KV cache block lifetime from allocation to eviction." + SAMPLED_TAIL,
        k -> k.lifetime);
    histogram(
        f,
        engines,
        created,
        labels,
        "vllm:kv_block_idle_before_evict_seconds",
        "Histogram of idle time before KV cache block eviction." + SAMPLED_TAIL,
        k -> k.idle);
    histogram(
        f,
        engines,
        created,
        labels,
        "vllm:kv_block_reuse_gap_seconds",
        "Histogram of time gaps between consecutive KV cache block accesses. Only the most recent"
            + " accesses are recorded (ring buffer)."
            + SAMPLED_TAIL,
        k -> k.reuseGap);
  }

  private static void histogram(
      Families f,
      List<VllmPage.Engine> engines,
      CreatedClock created,
      Function<VllmPage.Engine, String[]> labels,
      String name,
      String help,
      Function<VllmKvResidency, Histogram> pick) {
    VllmPage.histogram(f, engines, created, labels, name, help, m -> pick.apply(m.kvResidency()));
  }
}
