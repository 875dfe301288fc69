package dev.infermon.simulator.model;

/**
 * The requests one engine receives: the base arrival rate and the length distributions. Lengths are
 * log-normal (median and shape), as request-length heatmaps of real services look; the output is
 * cut at the request's {@code max_tokens}, which is then its finish reason.
 *
 * @param requestsPerSecond mean arrival rate before the daily cycle, bursts and scenario
 * @param promptMedian median prompt length in tokens
 * @param promptSigma log-normal shape of the prompt length
 * @param outputMedian median output length in tokens
 * @param outputSigma log-normal shape of the output length
 * @param maxTokensChoices the {@code max_tokens} values clients send, chosen uniformly
 * @param prefixShareProbability the share of requests that start with a cached prefix
 * @param abortProbability the share of requests whose client gives up
 * @param abortMeanSeconds mean time after arrival at which such a client gives up
 * @param phase which part of the work this engine does
 */
public record Workload(
    double requestsPerSecond,
    double promptMedian,
    double promptSigma,
    double outputMedian,
    double outputSigma,
    int[] maxTokensChoices,
    double prefixShareProbability,
    double abortProbability,
    double abortMeanSeconds,
    Phase phase) {

  /** The part of a request an engine serves. */
  public enum Phase {
    /** Prefill and decode (a unified engine). */
    BOTH,
    /** Prefill only, one output token (the prefill side of a PD pair). */
    PREFILL,
    /** Decode only: the prompt's KV arrives from the prefill side. */
    DECODE
  }

  /** Validates and defensively copies. */
  public Workload {
    if (!(requestsPerSecond >= 0) || Double.isInfinite(requestsPerSecond)) {
      throw new IllegalArgumentException(
          "requestsPerSecond must be >= 0, got " + requestsPerSecond);
    }
    if (!(promptMedian >= 1) || !(outputMedian >= 1)) {
      throw new IllegalArgumentException(
          "medians must be >= 1 token, got prompt " + promptMedian + ", output " + outputMedian);
    }
    if (!(promptSigma >= 0) || !(outputSigma >= 0)) {
      throw new IllegalArgumentException("sigmas must be >= 0");
    }
    if (maxTokensChoices == null || maxTokensChoices.length == 0) {
      throw new IllegalArgumentException("maxTokensChoices must not be empty");
    }
    maxTokensChoices = maxTokensChoices.clone();
    for (int m : maxTokensChoices) {
      if (m < 1) {
        throw new IllegalArgumentException("max_tokens choice must be >= 1, got " + m);
      }
    }
    probability("prefixShareProbability", prefixShareProbability);
    probability("abortProbability", abortProbability);
    if (!(abortMeanSeconds > 0)) {
      throw new IllegalArgumentException("abortMeanSeconds must be > 0, got " + abortMeanSeconds);
    }
    if (phase == null) {
      throw new IllegalArgumentException("phase must not be null");
    }
  }

  @Override
  public int[] maxTokensChoices() {
    return maxTokensChoices.clone();
  }

  int maxTokensChoice(int i) {
    return maxTokensChoices[i];
  }

  int maxTokensChoiceCount() {
    return maxTokensChoices.length;
  }

  /** The same workload at another base rate. */
  public Workload withRate(double rps) {
    return new Workload(
        rps,
        promptMedian,
        promptSigma,
        outputMedian,
        outputSigma,
        maxTokensChoices,
        prefixShareProbability,
        abortProbability,
        abortMeanSeconds,
        phase);
  }

  /** The same workload served as one phase of a PD pair. */
  public Workload withPhase(Phase p) {
    return new Workload(
        requestsPerSecond,
        promptMedian,
        promptSigma,
        outputMedian,
        outputSigma,
        maxTokensChoices,
        prefixShareProbability,
        abortProbability,
        abortMeanSeconds,
        p);
  }

  private static void probability(String name, double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1], got " + p);
    }
  }
}
