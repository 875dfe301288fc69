package dev.infermon.simulator.model;

/**
 * Cumulative GPU activity of one engine, integrated over simulated time. Readers (the dcgm page)
 * keep their own previous reading and divide the difference by the elapsed time, so there is no
 * reset to coordinate. The weights follow how DCGM's profiling fields behave on an LLM server:
 * prefill is tensor-heavy, decode is memory-bound, and a tiny batch leaves most SMs idle.
 */
public final class GpuActivity {
  double elapsed;
  double kernelTime;
  double smActive;
  double smOccupancy;
  double tensorActive;
  double dramActive;

  /** A fresh accumulator. */
  public GpuActivity() {}

  void idle(double seconds) {
    elapsed += seconds;
  }

  void iteration(double wall, double gpu, int prefillTokens, int decodeSeqs, int batchCap) {
    elapsed += wall;
    kernelTime += gpu;
    double tokens = prefillTokens + decodeSeqs;
    double fill =
        Math.min(1.0, (decodeSeqs + prefillTokens / 64.0) / Math.max(8.0, batchCap / 4.0));
    double prefillShare = tokens == 0 ? 0 : prefillTokens / tokens;
    smActive += gpu * (0.35 + 0.6 * Math.max(fill, prefillShare));
    smOccupancy += gpu * (0.15 + 0.45 * fill);
    tensorActive += gpu * (0.08 + 0.55 * prefillShare + 0.25 * fill * (1 - prefillShare));
    dramActive += gpu * (0.2 + 0.55 * (1 - prefillShare) * (0.4 + 0.6 * fill));
  }

  /** A copy of the totals so far. */
  public Reading read() {
    return new Reading(elapsed, kernelTime, smActive, smOccupancy, tensorActive, dramActive);
  }

  /**
   * Totals at one instant; {@link #since(Reading)} turns two readings into ratios over the window.
   *
   * @param elapsed simulated seconds observed
   * @param kernelTime seconds during which some kernel ran
   * @param smActive SM-active seconds
   * @param smOccupancy occupancy-weighted seconds
   * @param tensorActive tensor-pipe-active seconds
   * @param dramActive DRAM-active seconds
   */
  public record Reading(
      double elapsed,
      double kernelTime,
      double smActive,
      double smOccupancy,
      double tensorActive,
      double dramActive) {
    /** The zero reading. */
    public static final Reading ZERO = new Reading(0, 0, 0, 0, 0, 0);

    /** Ratios over the window from {@code before} to this reading (all 0 for an empty window). */
    public Ratios since(Reading before) {
      double dt = elapsed - before.elapsed;
      if (!(dt > 0)) {
        return Ratios.IDLE;
      }
      return new Ratios(
          clamp((kernelTime - before.kernelTime) / dt),
          clamp((smActive - before.smActive) / dt),
          clamp((smOccupancy - before.smOccupancy) / dt),
          clamp((tensorActive - before.tensorActive) / dt),
          clamp((dramActive - before.dramActive) / dt));
    }

    private static double clamp(double v) {
      return Math.max(0, Math.min(1, v));
    }
  }

  /**
   * Activity ratios over a window, each in [0, 1].
   *
   * @param kernel share of time some kernel ran (DCGM_FI_DEV_GPU_UTIL / 100)
   * @param sm SM active
   * @param occupancy SM occupancy
   * @param tensor tensor pipe active
   * @param dram DRAM active
   */
  public record Ratios(double kernel, double sm, double occupancy, double tensor, double dram) {
    /** An idle GPU. */
    public static final Ratios IDLE = new Ratios(0, 0, 0, 0, 0);
  }
}
