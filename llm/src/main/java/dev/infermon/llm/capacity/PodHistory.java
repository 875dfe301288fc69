package dev.infermon.llm.capacity;

/**
 * One pod's history on the step grid, a value per step (NaN where there is none): what the estimate
 * reads. Each value covers the step that ends at its time. Arrays are owned by the instance; not
 * copied (package-private, built by {@link CapacityEstimator} or tests).
 *
 * @param model {@code model_name}
 * @param namespace the namespace
 * @param pod the pod
 * @param timesMs each step's end
 * @param rate finished requests per second
 * @param generated generated tokens per second
 * @param itl mean inter-token latency, seconds
 * @param kv mean KV-cache usage, 0 to 1
 * @param kvSpread the standard deviation of KV-cache usage within the step
 * @param running mean requests running
 * @param preemptions preemptions per second
 */
record PodHistory(
    String model,
    String namespace,
    String pod,
    long[] timesMs,
    double[] rate,
    double[] generated,
    double[] itl,
    double[] kv,
    double[] kvSpread,
    double[] running,
    double[] preemptions) {

  /** Validates that every series spans the grid. */
  PodHistory {
    int n = timesMs.length;
    for (double[] v : new double[][] {rate, generated, itl, kv, kvSpread, running, preemptions}) {
      if (v.length != n) {
        throw new IllegalArgumentException("a series of " + pod + " does not span the grid");
      }
    }
  }

  int size() {
    return timesMs.length;
  }

  static boolean any(double[] v) {
    for (double x : v) {
      if (Double.isFinite(x)) {
        return true;
      }
    }
    return false;
  }
}
