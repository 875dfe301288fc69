package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.signals.Signal;
import java.util.List;
import java.util.Optional;

/**
 * Whether a target's samples show that its engine has served requests: a running-requests gauge or
 * a token or request counter that is not 0. A family the engine creates on first use is then owed
 * by the page, so its absence is not "no traffic yet". Stateless.
 */
public final class Traffic {
  /** The signals whose families are written for every request, in the order they are named. */
  private static final List<Signal> EVIDENCE =
      List.of(
          Signal.REQUESTS_RUNNING,
          Signal.GENERATION_TOKENS,
          Signal.PROMPT_TOKENS,
          Signal.REQUESTS_FINISHED);

  private Traffic() {}

  /**
   * The signals whose families an engine writes for every request (at its first token or at its
   * finish): abort, retraction or prefill/decode families are created on first use too, but serving
   * requests does not imply them; nor SGLang's cached prompt tokens, counted only for a request
   * that hit the prefix cache (collector.py @ 00ae9c15 observe_one_finished_request: {@code if
   * cached_tokens > 0}), so a server whose requests hit nothing (a PD decode server) has none.
   */
  private static final List<Signal> PER_REQUEST =
      List.of(
          Signal.REQUESTS_FINISHED,
          Signal.PROMPT_TOKENS,
          Signal.GENERATION_TOKENS,
          Signal.TTFT,
          Signal.ITL,
          Signal.E2E_LATENCY);

  /**
   * For a family {@code metric} of {@code e} that is created on first use and written for every
   * request: the first family on {@code t} whose samples show requests were served (not 0 over the
   * window), or empty when none does, their samples were not read, or {@code metric} is not written
   * for every request.
   */
  public static Optional<String> served(EngineCatalog e, TargetInventory t, String metric) {
    if (!source(e, PER_REQUEST, metric)) {
      return Optional.empty();
    }
    return evidence(e, t);
  }

  /**
   * The first family of {@code e} on {@code t} whose samples show requests were served (not 0 over
   * the window), or empty when none does or their samples were not read.
   */
  public static Optional<String> evidence(EngineCatalog e, TargetInventory t) {
    for (Signal s : EVIDENCE) {
      for (SignalSource src : e.sources(s)) {
        for (String name : src.metrics()) {
          for (MetricEntry m : e.entries(name)) {
            for (NameVariant v : e.variants()) {
              FamilyInfo f = t.families().get(m.familyName(v));
              if (f != null && f.activity().nonZero()) {
                return Optional.of(f.name());
              }
            }
          }
        }
      }
    }
    return Optional.empty();
  }

  private static boolean source(EngineCatalog e, List<Signal> signals, String metric) {
    for (Signal s : signals) {
      for (SignalSource src : e.sources(s)) {
        if (src.metrics().contains(metric)) {
          return true;
        }
      }
    }
    return false;
  }
}
