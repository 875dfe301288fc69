package dev.infermon.lint.checks;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.Location;
import dev.infermon.lint.Severity;
import dev.infermon.llm.catalog.BucketBounds;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.ReleaseBounds;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.slo.SliSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks an SLO's latency threshold against the bucket bounds of each histogram the SLI reads, of
 * every engine (the catalog's bounds in the newest release that has the histogram; vLLM's
 * inter-token latency reads two, {@code inter_token_latency_seconds} and, before 0.11 and on NIM,
 * {@code time_per_output_token_seconds}): "95% within 2.5 s" is measured exactly only when 2.5 is a
 * bound; otherwise the share is interpolated. With {@code engine} set, a threshold that is not a
 * bound of one of them is an error; without, it is an error when no histogram has it as a bound and
 * a warning naming those that lack it (their terms are left out of the rules, and an engine with
 * none left gets no rules). Stateless.
 */
public final class SloCheck {
  private SloCheck() {}

  /** The findings of one SLO, located at {@code at}, for every release the catalog records. */
  public static List<Finding> check(LlmConfig.Slo slo, Catalog catalog, Location at) {
    return check(slo, Reference.catalogOnly(catalog), at);
  }

  /**
   * The findings of one SLO, located at {@code at}: a release whose buckets lack the threshold is
   * named when a target of {@code ref} may run it (any release when {@code ref} has no target of
   * the engine).
   */
  public static List<Finding> check(LlmConfig.Slo slo, Reference ref, Location at) {
    Catalog catalog = ref.catalog();
    List<Finding> out = new ArrayList<>();
    if (slo.sli().equals("success")) {
      return out;
    }
    List<String> misses = new ArrayList<>();
    List<String> older = new ArrayList<>();
    int exact = 0;
    int measured = 0;
    for (EngineCatalog e : SliSource.candidates(slo, catalog)) {
      Optional<SliSource> src = SliSource.of(e, slo.sli(), catalog);
      if (src.isEmpty()) {
        continue;
      }
      measured++;
      for (SliSource.Family f : src.get().families()) {
        Optional<BucketBounds.Placement> p = src.get().placement(f, slo);
        if (p.isEmpty() || p.get().onBound()) {
          exact++;
          for (SliSource.Fallback fb : src.get().fallbacks(f, slo)) {
            if (!mayRun(ref, e, fb.run())) {
              continue;
            }
            older.add(
                e.title()
                    + " "
                    + fb.run().releases()
                    + "'s "
                    + e.variants().get(0).prefix()
                    + f.name()
                    + " (read at "
                    + BucketBounds.num(fb.bound())
                    + "s there)");
          }
          continue;
        }
        List<String> near = new ArrayList<>();
        p.get().suggestions().forEach(b -> near.add(BucketBounds.num(b) + "s"));
        misses.add(
            e.title()
                + "'s "
                + e.variants().get(0).prefix()
                + f.name()
                + " (nearest bounds: "
                + String.join(", ", near)
                + ")");
      }
    }
    String threshold = BucketBounds.num(SliSource.seconds(slo)) + "s";
    if (measured == 0) {
      out.add(
          Finding.of(
              CheckId.SLO_THRESHOLD_NOT_BUCKET,
              at,
              "SLO "
                  + slo.name()
                  + ": no engine"
                  + scope(slo)
                  + " measures the SLI "
                  + slo.sli()
                  + ".",
              "choose another SLI or engine",
              slo.name()));
    } else if (!misses.isEmpty()) {
      boolean fatal = exact == 0 || !slo.engine().isEmpty();
      out.add(
          new Finding(
              CheckId.SLO_THRESHOLD_NOT_BUCKET,
              fatal ? Severity.ERROR : Severity.WARNING,
              at,
              "SLO "
                  + slo.name()
                  + ": the threshold "
                  + threshold
                  + " is not a bucket bound of "
                  + String.join("; ", misses)
                  + ": the share of requests within it would be interpolated"
                  + (fatal ? "." : "; those histograms get no terms in the rules."),
              "use a bucket bound as the threshold",
              threshold));
    }
    if (!older.isEmpty()) {
      out.add(
          new Finding(
              CheckId.BOUND_MISSING_IN_RELEASE,
              Severity.WARNING,
              at,
              "SLO "
                  + slo.name()
                  + ": the threshold "
                  + threshold
                  + " is a bucket bound of the newest release but not of "
                  + String.join("; ", older)
                  + ": on targets of those releases the rules count a request as good at the"
                  + " largest bound below it, so their error ratio is an upper bound.",
              "use a bound of every release, or upgrade those targets",
              threshold));
    }
    return out;
  }

  /** Whether a target of {@code e} in {@code ref} may run a release of {@code run}. */
  private static boolean mayRun(Reference ref, EngineCatalog e, ReleaseBounds.Run run) {
    List<TargetInventory> targets = ref.targetsOf(e);
    if (ref.mode() == Reference.Mode.CATALOG || targets.isEmpty()) {
      return true;
    }
    for (TargetInventory t : targets) {
      ReleaseRange r = t.detection().versions();
      if (r == null
          || (r.first().compareTo(run.last()) <= 0 && r.last().compareTo(run.first()) >= 0)) {
        return true;
      }
    }
    return false;
  }

  private static String scope(LlmConfig.Slo slo) {
    return slo.engine().isEmpty() ? "" : " of " + slo.engine();
  }
}
