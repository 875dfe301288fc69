package dev.infermon.simulator.model;

/**
 * The simulator's ground truth for capacity: the steady arrival rate at which one engine's KV cache
 * reaches its ceiling. Found by running the engine itself, not by a formula: the engine is fed a
 * constant Poisson load ({@link LoadShape#flat()}) of the given workload and scenario, warmed up,
 * then observed; a rate is past the ceiling when the engine preempts in the observed span or its
 * mean KV usage is at least {@link #SATURATED_USAGE}. The ceiling is the lowest such rate, bisected
 * to {@link #RELATIVE_PRECISION}.
 *
 * <p>Why preemptions or a nearly full cache: that is where the causal chain begins (a full cache
 * first preempts, then queues); below it, the cache has room for every arriving request. The
 * scenario's arrival factor is left out (the rate asked about is the rate the engine receives);
 * every other effect (a smaller cache, longer outputs, a slower card) is in.
 */
public final class KvCeiling {
  /** Mean KV usage at which an engine counts as full (the scheduler keeps a watermark free). */
  public static final double SATURATED_USAGE = 0.95;

  /** The bisection stops when the bracket is this narrow, relative to its upper end. */
  public static final double RELATIVE_PRECISION = 0.02;

  static final double WARMUP_SECONDS = 600;
  static final double OBSERVE_SECONDS = 1800;
  private static final double SAMPLE_SECONDS = 1;
  private static final double START = 1_700_000_000;

  private KvCeiling() {}

  /** What one steady-load run showed. */
  public record Probe(double rate, double meanKvUsage, long preemptions, double meanRunning) {
    /** Whether the engine was at its ceiling at this rate. */
    public boolean saturated() {
      return preemptions > 0 || meanKvUsage >= SATURATED_USAGE;
    }
  }

  /**
   * The lowest steady arrival rate (requests per second per engine) at which the engine with {@code
   * params} under {@code effects}, receiving {@code workload}'s requests, preempts or keeps its
   * cache full.
   *
   * @param seed seeds the arrivals: another seed moves the answer by a few percent
   */
  public static double requestRate(
      EngineParams params, Workload workload, ScenarioEffects effects, long seed) {
    double lo = 0;
    double hi = Math.max(0.1, workload.requestsPerSecond());
    for (int i = 0; i < 20 && !probe(params, workload, effects, seed, hi).saturated(); i++) {
      lo = hi;
      hi *= 2;
    }
    for (int i = 0; i < 40 && hi - lo > RELATIVE_PRECISION * hi; i++) {
      double mid = (lo + hi) / 2;
      if (probe(params, workload, effects, seed, mid).saturated()) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return (lo + hi) / 2;
  }

  /** One run at a steady {@code rate}: warm-up, then {@link #OBSERVE_SECONDS} observed. */
  public static Probe probe(
      EngineParams params, Workload workload, ScenarioEffects effects, long seed, double rate) {
    Counter counter = new Counter();
    EngineModel e =
        new EngineModel(params, workload.withRate(rate), LoadShape.flat(), seed, counter, START);
    e.setEffects(withoutArrivalFactor(effects));
    e.advanceTo(START + WARMUP_SECONDS);
    counter.preemptions = 0;
    double usage = 0;
    double running = 0;
    int samples = 0;
    for (double t = START + WARMUP_SECONDS + SAMPLE_SECONDS;
        t <= START + WARMUP_SECONDS + OBSERVE_SECONDS;
        t += SAMPLE_SECONDS) {
      e.advanceTo(t);
      EngineState s = e.state();
      usage += s.kvUsage();
      running += s.running();
      samples++;
    }
    return new Probe(rate, usage / samples, counter.preemptions, running / samples);
  }

  private static ScenarioEffects withoutArrivalFactor(ScenarioEffects e) {
    return new ScenarioEffects(
        1,
        e.kvCapacityFactor(),
        e.slowdown(),
        e.maxNumSeqsCap(),
        e.outputFactor(),
        e.errorRate(),
        e.deferredFraction(),
        e.deferredBudget(),
        e.promptFactor(),
        e.prefixCaching());
  }

  /** Counts preemptions; everything else the engine reports is not needed here. */
  private static final class Counter implements EngineListener {
    long preemptions;

    @Override
    public void onPreempted(Request r, double now) {
      preemptions++;
    }
  }
}
