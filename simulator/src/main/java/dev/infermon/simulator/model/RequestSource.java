package dev.infermon.simulator.model;

/**
 * Where an engine's requests come from: arrivals thinned to the load shape, and each request's
 * sampled facts (lengths, cached prefix, fate). Every draw happens unconditionally and in a fixed
 * order, so a scenario's branch does not shift the random sequence of the requests after it. Not
 * thread-safe.
 */
final class RequestSource {
  /** How long a client waits for its answer before it gives up (aborts). */
  static final double CLIENT_TIMEOUT_SECONDS = EngineModel.CLIENT_TIMEOUT_SECONDS;

  private final EngineParams params;
  private final Workload workload;
  private final LoadShape shape;
  private final Rng rng;
  private ScenarioEffects effects = ScenarioEffects.NONE;
  private double nextArrival;
  private long nextId;

  RequestSource(EngineParams params, Workload workload, LoadShape shape, long seed, double start) {
    this.params = params;
    this.workload = workload;
    this.shape = shape;
    this.rng = new Rng(seed);
    this.nextArrival = drawNextArrival(start);
  }

  /** When the next request arrives, epoch seconds (infinite when nothing arrives). */
  double nextArrival() {
    return nextArrival;
  }

  /** Applies new effects from {@code now}: the next arrival is redrawn at the new rate. */
  void setEffects(ScenarioEffects e, double now) {
    this.effects = e;
    this.nextArrival = drawNextArrival(now);
  }

  /** The request arriving at {@link #nextArrival()}; draws the one after it. */
  Request next(int usableBlocks) {
    Request r = newRequest(nextArrival, usableBlocks);
    nextArrival = drawNextArrival(nextArrival);
    return r;
  }

  private double drawNextArrival(double from) {
    double lambdaMax =
        workload.requestsPerSecond() * shape.maxMultiplier() * effects.arrivalFactor();
    if (!(lambdaMax > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    double t = from;
    // thinning: candidates at the peak rate, kept in proportion to the rate at their time
    for (int guard = 0; guard < 10_000; guard++) {
      t += rng.exponential(lambdaMax);
      double lambda = workload.requestsPerSecond() * shape.multiplier(t) * effects.arrivalFactor();
      if (rng.uniform() * lambdaMax <= lambda) {
        return t;
      }
    }
    return t;
  }

  private Request newRequest(double at, int usableBlocks) {
    double promptDraw =
        rng.logNormal(workload.promptMedian() * effects.promptFactor(), workload.promptSigma());
    double outputDraw =
        rng.logNormal(workload.outputMedian() * effects.outputFactor(), workload.outputSigma());
    int maxTokensIndex = rng.nextInt(workload.maxTokensChoiceCount());
    boolean sharesPrefix = rng.chance(workload.prefixShareProbability()) && effects.prefixCaching();
    double prefixShare = rng.uniform(0.2, 0.85);
    boolean failing = rng.chance(effects.errorRate());
    boolean aborts = rng.chance(workload.abortProbability());
    double abortDelay = rng.exponential(1.0 / workload.abortMeanSeconds());
    boolean deferred = rng.chance(effects.deferredFraction());

    boolean prefillOnly = workload.phase() == Workload.Phase.PREFILL;
    int maxTokens = prefillOnly ? 1 : workload.maxTokensChoice(maxTokensIndex);
    // no prompt larger than half the usable cache: a real deployment's max_model_len fits its cache
    long halfCache = (long) usableBlocks * params.blockSize() / 2;
    int maxPrompt =
        (int) Math.max(1, Math.min(params.maxModelLen() - maxTokens, halfCache - maxTokens));
    int prompt = (int) Math.max(1, Math.min(maxPrompt, Math.round(promptDraw)));
    int output = (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(outputDraw)));
    int target = Math.min(output, maxTokens);
    int cached = 0;
    if (sharesPrefix && workload.phase() != Workload.Phase.DECODE) {
      int blocks = (int) (prompt * prefixShare) / params.blockSize();
      cached = Math.min(blocks * params.blockSize(), prompt - 1);
      cached = Math.max(0, cached);
    }
    // every client gives up after CLIENT_TIMEOUT_SECONDS; a few give up much earlier
    double abortAt =
        Math.min(aborts ? at + abortDelay : Double.POSITIVE_INFINITY, at + CLIENT_TIMEOUT_SECONDS);
    Request r =
        new Request(nextId++, at, prompt, cached, maxTokens, target, failing, abortAt, deferred);
    if (workload.phase() == Workload.Phase.DECODE) {
      r.prefillTarget = 0; // the prompt's KV arrives from the prefill peer
    }
    return r;
  }
}
