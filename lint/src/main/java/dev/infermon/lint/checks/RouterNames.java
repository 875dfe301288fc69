package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Location;
import dev.infermon.lint.Severity;
import dev.infermon.llm.catalog.NonEngineMetric;
import java.util.List;

/**
 * Names of routers and schedulers (vLLM production-stack's router, the endpoint pickers of the
 * Gateway API Inference Extension and llm-d): not engine metrics, so never judged against an
 * endpoint. A known current name is fine; a name of a generation no release emits any more, or a
 * name no release had under a prefix a scheduler owns, is a warning naming the same quantity under
 * the current generation. Both only warn: the list is of names, not of every release's surface.
 * Stateless.
 */
final class RouterNames {
  private RouterNames() {}

  static void check(QueryScope s, MetricInfo info, Location at) {
    NonEngineMetric m = info.router();
    String name = info.sample();
    if (m != null) {
      if (m.gone()) {
        s.report(
            CheckId.REMOVED_METRIC,
            Severity.WARNING,
            at,
            name
                + " is not an engine metric: it is the "
                + s.ref.catalog().nonEngine().title(m.component())
                + "'s, from "
                + m.since()
                + " until "
                + m.until()
                + (m.note().isEmpty() ? "" : " (" + m.note() + ")")
                + "; no release emits it since.",
            m.replacedBy().isEmpty() ? "" : "use " + sample(m.replacedBy(), m.name(), name),
            name);
      }
      return;
    }
    List<NonEngineMetric> same = s.ref.catalog().nonEngine().sameQuantity(name);
    String fix = "";
    if (!same.isEmpty()) {
      NonEngineMetric current = same.get(0);
      fix =
          "use "
              + sampleOf(current, name)
              + " ("
              + s.ref.catalog().nonEngine().title(current.component())
              + (current.since().isEmpty() ? "" : ", since " + current.since())
              + (current.note().isEmpty() ? "" : "; " + current.note())
              + ")";
    }
    s.report(
        CheckId.UNKNOWN_METRIC,
        Severity.WARNING,
        at,
        name
            + " is not an engine metric, and no release of the scheduler that owns its prefix"
            + " exposes it (judged by infermon's list of router and scheduler names, not by an"
            + " endpoint).",
        fix,
        name);
  }

  /**
   * Said after an engine finding on a name a router also exports ({@code vllm:num_requests_swapped}
   * is the production stack router's gauge too): empty when no router has it.
   */
  static String alsoRouter(QueryScope s, MetricInfo info) {
    NonEngineMetric m = info.router();
    if (m == null) {
      return "";
    }
    return " The "
        + s.ref.catalog().nonEngine().title(m.component())
        + " exports a "
        + m.type().name().toLowerCase(java.util.Locale.ROOT)
        + " of the same name"
        + (m.note().isEmpty() ? "" : " (" + m.note() + ")")
        + ", which is not the engine's.";
  }

  /** The sample of {@code family} that corresponds to {@code queried} ({@code _bucket} kept). */
  private static String sampleOf(NonEngineMetric family, String queried) {
    for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
      if (queried.endsWith(suffix) && family.sampleNames().contains(family.name() + suffix)) {
        return family.name() + suffix;
      }
    }
    return family.name();
  }

  /** {@code replacement} with the suffix {@code queried} adds to {@code family}. */
  private static String sample(String replacement, String family, String queried) {
    return queried.startsWith(family)
        ? replacement + queried.substring(family.length())
        : replacement;
  }
}
