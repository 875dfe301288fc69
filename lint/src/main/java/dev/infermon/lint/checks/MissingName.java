package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Location;
import dev.infermon.lint.Severity;
import dev.infermon.llm.catalog.Condition;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.History;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.catalog.WriterGroup;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.inventory.Traffic;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A name the endpoints do not expose, and why, most specific reason first: the other spelling, the
 * missing {@code _total}, a product's fixed subset, a removal, a later release, a condition (flag,
 * counters CSV, hardware), a page cut short, a family not created yet, and last a name no one knows
 * (with the rename or the closest name of the same quantity).
 */
final class MissingName {
  private MissingName() {}

  static void report(QueryScope s, MetricInfo info, Location at) {
    String name = info.sample();
    if (spelledOrTotal(s, info, at)) {
      return;
    }
    Reference.CatalogHit hit = info.hit();
    if (hit == null) {
      unknown(s, name, at);
      return;
    }
    String runs = NameCheck.runs(s, hit.engine(), s.ref.releases(hit.engine()));
    if (productLacks(s, info, at, runs) || removed(s, info, at, runs) || later(s, info, at, runs)) {
      return;
    }
    MetricEntry latest = hit.latest();
    if (mayBeAbsent(latest.condition())) {
      conditional(s, hit, latest, name, at, runs);
      return;
    }
    if (!incomplete(s, info, at, runs)) {
      notCreated(s, info, at, runs);
    }
  }

  /**
   * Whether a healthy, correctly configured target may lack the family: a flag's, and a dcgm
   * field's that its counters CSV or its GPU decides even when the exporter registers it (a default
   * field of hardware the GPU lacks is blank, and the exporter skips blank values).
   */
  private static boolean mayBeAbsent(Condition c) {
    return c.gated()
        || c.kind() == Condition.Kind.HARDWARE
        || c.kind() == Condition.Kind.CUSTOM_CSV;
  }

  /**
   * The other spelling of the engine's prefix, or the counter's name with {@code _total} or, for an
   * engine whose counters have none, without it.
   */
  private static boolean spelledOrTotal(QueryScope s, MetricInfo info, Location at) {
    String name = info.sample();
    String spelt = NameSpellings.otherSpelling(s, name, info.hit());
    if (spelt != null) {
      s.report(
          CheckId.PREFIX_SPELLING,
          at,
          name + " is not exposed; the endpoints spell it " + spelt + ".",
          "use " + spelt,
          name);
      return true;
    }
    if (!name.endsWith("_total")) {
      MetricInfo total = s.info(name + "_total");
      if (total.exposed() && total.cumulative()) {
        s.report(
            CheckId.COUNTER_WITHOUT_TOTAL,
            at,
            name
                + " is a counter exposed as "
                + name
                + "_total; without _total it matches nothing.",
            "use " + name + "_total",
            name);
        return true;
      }
    } else {
      // the reverse: an engine whose counters keep their plain names (TGI's, Triton's)
      String plain = name.substring(0, name.length() - "_total".length());
      MetricInfo counter = s.info(plain);
      if (counter.exposed() && counter.hit() != null && counter.cumulative()) {
        s.report(
            CheckId.UNKNOWN_METRIC,
            at,
            name
                + " is not exposed: "
                + counter.hit().engine().title()
                + "'s counter is "
                + plain
                + ", without _total.",
            "use " + plain,
            name);
        return true;
      }
    }
    return false;
  }

  /**
   * The product (NVIDIA NIM) whose spelling every endpoint of the hit's engine uses, when that
   * product's subset lacks the family: it decides before any release, as in the dashboard's
   * reasons.
   */
  private static boolean productLacks(QueryScope s, MetricInfo info, Location at, String runs) {
    Reference.CatalogHit hit = info.hit();
    Set<Spelling> used = s.ref.spellingsOf(hit.engine());
    if (!info.judgedByTargets() || used.isEmpty()) {
      return false;
    }
    String product = null;
    for (Spelling sp : used) {
      String p = sp.variant().product();
      if (p == null || p.isBlank() || hit.engine().serves(sp.variant(), hit.latest().name())) {
        return false;
      }
      product = p;
    }
    String title = hit.engine().title();
    // In the product's own spelling the name is one no endpoint ever serves (an error); in the
    // engine's (vllm:x) it is right for the engine's other endpoints, and only these lack it.
    boolean ownSpelling = product.equals(hit.variant().product());
    s.report(
        CheckId.UNKNOWN_METRIC,
        ownSpelling ? Severity.ERROR : Severity.WARNING,
        at,
        product
            + " does not expose "
            + info.sample()
            + ": it serves a fixed subset of "
            + title
            + "'s families, whatever "
            + title
            + " release it embeds ("
            + runs
            + ").",
        "",
        info.sample());
    return true;
  }

  /** A family hidden or removed before the oldest release the endpoints run. */
  private static boolean removed(QueryScope s, MetricInfo info, Location at, String runs) {
    Reference.CatalogHit hit = info.hit();
    History h = hit.latest().history();
    ReleaseLine gone = h.goneFrom();
    if (gone == null) {
      return false;
    }
    ReleaseLine added = NameHistory.firstRelease(hit);
    boolean older = !s.ref.releases(hit.engine()).first().atLeast(gone);
    if (older && !goneOrNotYet(s, hit, added, gone)) {
      return false;
    }
    String title = hit.engine().title();
    String what =
        h.hidden() != null && (h.removed() == null || h.hidden().compareTo(h.removed()) < 0)
            ? "hidden since "
                + title
                + " "
                + h.hidden()
                + " (--show-hidden-metrics-for-version brings it back)"
                + (h.removed() == null ? "" : ", removed in " + h.removed())
            : "removed in " + title + " " + h.removed();
    String name = info.sample();
    s.report(
        CheckId.REMOVED_METRIC,
        info.judgedByTargets() ? Severity.ERROR : Severity.WARNING,
        at,
        name
            + " is "
            + what
            + (h.deprecated() != null ? " (deprecated in " + h.deprecated() + ")" : "")
            + "; "
            + runs
            + (older ? " (the oldest run releases before " + added + ", which added it)" : "")
            + "."
            + RouterNames.alsoRouter(s, info),
        NameHistory.replacement(s, hit, h, name),
        name);
    return true;
  }

  /**
   * Whether every target of the hit's engine runs either a release from {@code gone} on or one
   * before {@code added}, and some the former: then no endpoint's release has the family, and the
   * name is a removed one (vLLM 0.8's {@code gpu_prefix_cache_hits_total} against 0.4 and 0.11
   * pods), not an unknown one. An undated target could run any release, so it answers no.
   */
  private static boolean goneOrNotYet(
      QueryScope s, Reference.CatalogHit hit, ReleaseLine added, ReleaseLine gone) {
    boolean past = false;
    for (TargetInventory t : s.ref.targetsOf(hit.engine())) {
      ReleaseRange r = t.detection().versions();
      if (r == null) {
        return false;
      }
      if (r.first().atLeast(gone)) {
        past = true;
      } else if (r.last().compareTo(added) >= 0) {
        return false;
      }
    }
    return past;
  }

  /** A family added after the newest release the endpoints run. */
  private static boolean later(QueryScope s, MetricInfo info, Location at, String runs) {
    Reference.CatalogHit hit = info.hit();
    ReleaseLine added = NameHistory.firstRelease(hit);
    if (s.ref.releases(hit.engine()).last().compareTo(added) >= 0) {
      return false;
    }
    String name = info.sample();
    String title = hit.engine().title();
    Condition c = hit.latest().condition();
    if (c.gated()) {
      // An optional feature of a later release (SGLang's MFU counters from 0.5.10 behind
      // --enable-mfu-metrics): the query is right for fleets that have both, so a warning that
      // names both, as for a flag that is off, not an error.
      s.report(
          CheckId.CONDITIONAL_METRIC_OFF,
          at,
          name
              + " exists only from "
              + title
              + " "
              + added
              + " with "
              + c.flag()
              + "; "
              + runs
              + ".",
          "upgrade and start the engine with " + c.flag() + ", or drop the query",
          name);
      return true;
    }
    // The query is right for the releases that have the family; the endpoints are older. A
    // warning of its own, not unknown-metric: nothing in the file is misspelt.
    s.report(
        CheckId.ADDED_LATER,
        at,
        name + " was added in " + title + " " + added + "; " + runs + ".",
        upgrade(title, added)
            + NameHistory.renamedFrom(s, hit, name)
                .map(o -> "; on older releases use " + o)
                .orElse(""),
        name);
    return true;
  }

  private static String upgrade(String title, ReleaseLine added) {
    return "upgrade " + title + " to " + added + " or later, or drop the query";
  }

  /**
   * A conditional family the endpoints lack. A dcgm field of a custom counters CSV is "behind the
   * counters CSV": the exporter has it the moment its CSV lists it. A field of hardware the GPUs
   * lack (NVLink on a PCIe card) is an info: the query is right for GPUs that have it.
   */
  private static void conditional(
      QueryScope s,
      Reference.CatalogHit hit,
      MetricEntry latest,
      String name,
      Location at,
      String runs) {
    String flag = latest.condition().flag();
    if (latest.condition().kind() == Condition.Kind.CUSTOM_CSV) {
      s.report(
          CheckId.CONDITIONAL_METRIC_OFF,
          at,
          name
              + " is behind the counters CSV: "
              + hit.engine().title()
              + " exposes it only when its counters CSV lists it, and these endpoints' does not ("
              + runs
              + ").",
          flag
              + "; the exporter reads the CSV -f or DCGM_EXPORTER_COLLECTORS names. Or drop the query",
          name);
      return;
    }
    if (latest.condition().kind() == Condition.Kind.HARDWARE) {
      // the query is right: on this hardware the field is blank, so there is nothing to fix
      s.report(
          CheckId.CONDITIONAL_METRIC_OFF,
          Severity.INFO,
          at,
          name
              + " exists only on GPUs with "
              + flag
              + " (DCGM reports it blank on others and "
              + hit.engine().title()
              + " skips blank values) and when the counters CSV lists it (the default one does);"
              + " these endpoints have none ("
              + runs
              + ").",
          "",
          name);
      return;
    }
    boolean exporter = latest.condition().kind() == Condition.Kind.DCGM_PROFILING;
    s.report(
        CheckId.CONDITIONAL_METRIC_OFF,
        at,
        name + " exists only with " + flag + ", which the endpoints do not set (" + runs + ").",
        (exporter ? "run it where " + flag + " is available" : "start the engine with " + flag)
            + ", or drop the query",
        name);
  }

  /**
   * A family the endpoints' pages must have had (a sibling its writer writes with it is there, or
   * the engine served the requests that create it): the pages were cut or relabelled.
   */
  private static boolean incomplete(QueryScope s, MetricInfo info, Location at, String runs) {
    Reference.CatalogHit hit = info.hit();
    MetricEntry latest = hit.latest();
    String name = info.sample();
    boolean catalogMode = !info.judgedByTargets();
    Optional<String> sibling = catalogMode ? Optional.empty() : writtenWith(s, hit, latest);
    String because;
    if (sibling.isPresent()) {
      WriterGroup g = hit.engine().writerOf(latest.name()).orElseThrow();
      because =
          sibling.get() + " is present and " + g.writer() + " writes them together " + g.when();
    } else {
      ReleaseRange r = s.ref.releases(hit.engine());
      Optional<String> served =
          catalogMode || !latest.lazy() || r.first().compareTo(NameHistory.firstRelease(hit)) < 0
              ? Optional.empty() // a release before the family is as true as "the page lacks it"
              : s.ref.targetsOf(hit.engine()).stream()
                  .flatMap(t -> Traffic.served(hit.engine(), t, latest.name()).stream())
                  .findFirst();
      if (served.isEmpty()) {
        return false;
      }
      because =
          hit.engine().title()
              + " creates it on first use and "
              + served.get()
              + " is not 0 in the window, so requests were served";
    }
    s.report(
        CheckId.UNKNOWN_METRIC,
        Severity.WARNING,
        at,
        name
            + " is missing from the endpoints although "
            + because
            + ": the pages are incomplete (cut, or names dropped by relabelling or a proxy) ("
            + runs
            + ").",
        "",
        name);
    return true;
  }

  /**
   * A family of {@code latest}'s writer group that a target in the engine's own spelling exposes,
   * where every release of the target's range that has it also has {@code latest}: then the writer
   * wrote {@code latest} too and the page lost it (cut, relabelled), whatever its laziness.
   */
  private static Optional<String> writtenWith(
      QueryScope s, Reference.CatalogHit hit, MetricEntry latest) {
    EngineCatalog e = hit.engine();
    Optional<WriterGroup> g = e.writerOf(latest.name());
    if (g.isEmpty()) {
      return Optional.empty();
    }
    NameVariant own = e.variants().get(0);
    for (TargetInventory t : s.ref.targetsOf(e)) {
      ReleaseRange range = t.detection().versions();
      if (range == null || !own.prefix().equals(t.detection().prefix())) {
        continue;
      }
      for (String n : g.get().metrics()) {
        for (MetricEntry sib : e.entries(n)) {
          if (n.equals(latest.name()) || !t.families().containsKey(sib.familyName(own))) {
            continue;
          }
          if (implied(e, range, sib, latest)) {
            return Optional.of(sib.familyName(own));
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Whether every release of {@code range} that has {@code sib} also has {@code latest}. */
  private static boolean implied(
      EngineCatalog e, ReleaseRange range, MetricEntry sib, MetricEntry latest) {
    boolean implied = true;
    for (ReleaseLine v : e.versions()) {
      implied &= !range.contains(v) || !sib.existsIn(v) || latest.exposedIn(v);
    }
    return implied;
  }

  /** A family created on first use (info), or else one no endpoint exposes (error). */
  private static void notCreated(QueryScope s, MetricInfo info, Location at, String runs) {
    Reference.CatalogHit hit = info.hit();
    String name = info.sample();
    ReleaseLine added = NameHistory.firstRelease(hit);
    String title = hit.engine().title();
    boolean maybeOlder = s.ref.releases(hit.engine()).first().compareTo(added) < 0;
    if (!hit.latest().lazy()) {
      if (maybeOlder) {
        // the range could not be narrowed past the release that added it (a page cut to an
        // excerpt): an older release is as likely as a page that lost it
        s.report(
            CheckId.ADDED_LATER,
            at,
            name
                + " is not exposed: either the endpoints run a release before "
                + title
                + " "
                + added
                + ", which added it ("
                + runs
                + "), or their pages lack it.",
            upgrade(title, added),
            name);
        return;
      }
      s.report(
          CheckId.UNKNOWN_METRIC,
          at,
          name + " is not exposed by any endpoint (" + runs + ").",
          "",
          name);
      return;
    }
    s.report(
        CheckId.UNKNOWN_METRIC,
        Severity.INFO,
        at,
        maybeOlder
            // the range could not be narrowed past the release that added it: either is true
            ? name
                + " is not exposed: either the endpoints run a release before "
                + title
                + " "
                + added
                + ", which added it ("
                + runs
                + "), or "
                + title
                + " has not created it yet (it does on first use)."
            : name
                + " is not exposed yet: "
                + title
                + " creates it on first use (no traffic of that kind so far).",
        "",
        name);
  }

  /** A name no catalogued family has: the rename from history, else the closest same quantity. */
  private static void unknown(QueryScope s, String name, Location at) {
    Set<String> candidates = new LinkedHashSet<>(s.ref.exposedSamples());
    if (candidates.isEmpty() || s.ref.mode() == Reference.Mode.CATALOG) {
      for (EngineCatalog e : s.ref.catalog().engines()) {
        for (MetricEntry m : e.metrics()) {
          for (NameVariant v : e.variants()) {
            if (m.exposedIn(e.newest())) {
              candidates.addAll(m.sampleNames(v));
            }
          }
        }
      }
    }
    String renamed = NameHistory.renamedTo(s, name);
    String close = renamed != null ? renamed : SameQuantity.closest(name, candidates);
    String where =
        s.ref.mode() == Reference.Mode.CATALOG
            ? "no release of the engines infermon knows exposes it"
            : "no endpoint exposes it";
    s.report(
        CheckId.UNKNOWN_METRIC,
        at,
        name + " is not a known metric: " + where + ".",
        close == null ? "" : (renamed != null ? "renamed to " : "did you mean ") + close + "?",
        name);
  }
}
