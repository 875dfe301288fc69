package dev.infermon.simulator.vllm;

import dev.infermon.simulator.text.Families;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PythonFamilies.Child;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * What one vLLM engine's NIXL connector counts ({@code --kv-transfer-config} with {@code
 * NixlConnector}), as {@code NixlPromMetrics} observes it (vllm-project/vllm
 * vllm/distributed/kv_transfer/kv_connector/v1/nixl/stats.py @ bd33ba3e): one sample per TP
 * worker's transfer, the workers' samples pooled. The decode side reads (pull mode): each request
 * whose KV arrives moves the prompt's blocks, every TP worker its share of the heads, so the bytes'
 * sum is every byte moved. A transfer lasts what the engine model's transfer took (arrival to KV
 * arrived). One request in {@link #FAILURE_EVERY} has its first worker's transfer fail: that worker
 * records a failed transfer instead of samples (the simulator then runs the request as if its KV
 * had arrived; vLLM would recompute the invalid blocks). The prefill side registers the families
 * and records nothing. Not thread-safe.
 */
public final class VllmNixl {
  /** {@code vllm:nixl_xfer_time_seconds}: the post-time list without its first bound. */
  static final double[] XFER_TIME = {
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 5.0
  };

  /** {@code vllm:nixl_post_time_seconds}. */
  static final double[] POST_TIME = {
    0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 5.0
  };

  /** {@code vllm:nixl_bytes_transferred}: {@code 2 ** (10 + i)} for i in 1, 3, ..., 23. */
  static final double[] BYTES = bytesBuckets();

  /** {@code vllm:nixl_num_descriptors}. */
  static final double[] DESCRIPTORS = {
    10, 20, 30, 50, 75, 100, 200, 400, 1000, 2000, 4000, 10000, 20000, 50000
  };

  /** One request's transfer in this many has a failed worker transfer. */
  public static final int FAILURE_EVERY = 50;

  /**
   * Layers of the fixed model shape ({@link VllmMfu#KV_BYTES_PER_TOKEN}'s): a worker's transfer has
   * one descriptor per block for each layer's K and each layer's V region.
   */
  static final int LAYERS = 32;

  /** NIXL's post (submission) time of one transfer: a fixed small figure. */
  static final double POST_SECONDS = 0.0004;

  private final int workers;
  private final int blockSize;
  final Histogram xferTime = new Histogram(XFER_TIME);
  final Histogram postTime = new Histogram(POST_TIME);
  final Histogram bytes = new Histogram(BYTES);
  final Histogram descriptors = new Histogram(DESCRIPTORS);
  long failedTransfers;
  private long requests;

  /**
   * A connector at zero.
   *
   * @param workers the engine's TP workers, each transferring its share
   * @param blockSize tokens per KV block
   */
  public VllmNixl(int workers, int blockSize) {
    if (workers < 1 || blockSize < 1) {
      throw new IllegalArgumentException(
          "workers and blockSize must be >= 1, got " + workers + ", " + blockSize);
    }
    this.workers = workers;
    this.blockSize = blockSize;
  }

  private static double[] bytesBuckets() {
    double[] out = new double[12];
    for (int k = 0; k < out.length; k++) {
      out[k] = Math.pow(2, 11 + 2 * k);
    }
    return out;
  }

  /** The KV of a {@code promptTokens}-token prompt arrived, {@code seconds} after it was sent. */
  void received(int promptTokens, double seconds) {
    requests++;
    long blocks = (promptTokens + blockSize - 1) / blockSize;
    double share = blocks * blockSize * VllmMfu.KV_BYTES_PER_TOKEN / workers;
    boolean fail = requests % FAILURE_EVERY == 0;
    for (int w = 0; w < workers; w++) {
      if (fail && w == 0) {
        failedTransfers++;
        continue;
      }
      xferTime.observe(seconds);
      postTime.observe(POST_SECONDS);
      bytes.observe(share);
      descriptors.observe(blocks * LAYERS * 2.0);
    }
  }

  /** Bytes every worker moved in successful transfers (the bytes histogram's sum). */
  public double bytesMoved() {
    return bytes.sum();
  }

  /** Successful worker transfers (the time histogram's count). */
  public long transfers() {
    return xferTime.count();
  }

  /** Seconds the successful worker transfers took together (the time histogram's sum). */
  public double transferSeconds() {
    return xferTime.sum();
  }

  /** Worker transfers that failed ({@code vllm:nixl_num_failed_transfers_total}). */
  public long failedTransfers() {
    return failedTransfers;
  }

  /**
   * NixlPromMetrics' families, one child per engine from start-up (create_metric_per_engine), HELP
   * texts as in stats.py (the descriptors' double space included).
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
        "vllm:nixl_xfer_time_seconds",
        "Histogram of transfer duration for NIXL KV Cache transfers.",
        n -> n.xferTime);
    histogram(
        f,
        engines,
        created,
        labels,
        "vllm:nixl_post_time_seconds",
        "Histogram of transfer post time for NIXL KV Cache transfers.",
        n -> n.postTime);
    histogram(
        f,
        engines,
        created,
        labels,
        "vllm:nixl_bytes_transferred",
        "Histogram of bytes transferred per NIXL KV Cache transfers.",
        n -> n.bytes);
    histogram(
        f,
        engines,
        created,
        labels,
        "vllm:nixl_num_descriptors",
        "Histogram of number of descriptors per NIXL  KV Cache transfers.",
        n -> n.descriptors);
    counter(
        f,
        engines,
        created,
        labels,
        "vllm:nixl_num_failed_transfers",
        "Number of failed NIXL KV Cache transfers.",
        n -> n.failedTransfers);
    counter(
        f,
        engines,
        created,
        labels,
        "vllm:nixl_num_failed_notifications",
        "Number of failed NIXL KV Cache notifications.",
        n -> 0);
    counter(
        f,
        engines,
        created,
        labels,
        "vllm:nixl_num_kv_expired_reqs",
        "Number of requests that had their KV expire. NOTE: This metric is tracked on the P"
            + " instance.",
        n -> 0);
  }

  private static void histogram(
      Families f,
      List<VllmPage.Engine> engines,
      CreatedClock created,
      Function<VllmPage.Engine, String[]> labels,
      String name,
      String help,
      Function<VllmNixl, Histogram> pick) {
    VllmPage.histogram(f, engines, created, labels, name, help, m -> pick.apply(m.nixl()));
  }

  private static void counter(
      Families f,
      List<VllmPage.Engine> engines,
      CreatedClock created,
      Function<VllmPage.Engine, String[]> labels,
      String name,
      String help,
      ToDoubleFunction<VllmNixl> value) {
    List<Child> children = new ArrayList<>();
    for (VllmPage.Engine e : engines) {
      children.add(
          new Child(labels.apply(e), value.applyAsDouble(e.metrics().nixl()), created.next()));
    }
    f.counter(name, help, children);
  }
}
