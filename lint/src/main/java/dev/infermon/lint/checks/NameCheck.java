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
import dev.infermon.llm.catalog.WriterGroup;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.inventory.Traffic;
import dev.infermon.promql.parser.VectorSelector;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Metric names against what is exposed: unknown names (with the likely rename), counters without
 * {@code _total}, the other spelling of an engine's prefix, deprecated, hidden and removed names
 * (with the version and the replacement), and conditional metrics whose flag is off. Names outside
 * the engines' namespaces ({@code up}, node metrics, names recorded by the rules under check) are
 * not judged: lint cannot know them. Each name is reported once per query.
 */
final class NameCheck {
  private NameCheck() {}

  static void run(QueryScope s) {
    Set<String> done = new HashSet<>();
    for (VectorSelector vs : s.selectors()) {
      String name = ExprWalk.metricName(vs);
      if (name == null || s.recorded.contains(name) || !done.add(name)) {
        continue;
      }
      MetricInfo info = s.info(name);
      Location at = s.at(vs);
      if (info.hit() == null) {
        if (info.router() != null || s.ref.catalog().nonEngine().judges(name)) {
          RouterNames.check(s, info, at);
          continue;
        }
        if (NameSpellings.lookalike(s, info, at) || NameSpellings.colonsReplaced(s, name, at)) {
          continue;
        }
        if (!inEngineNamespace(s, name)) {
          continue;
        }
      }
      if (info.hit() != null && Alternatives.covered(s, vs, info)) {
        continue; // one of several spellings or releases of the same quantity, joined with or
      }
      if (info.created()) {
        created(s, info, at);
      } else if (info.exposed()) {
        deprecated(s, info, at);
      } else {
        missing(s, info, at);
      }
    }
  }

  /** A {@code _created} gauge where the engine's release or collector writes none. */
  private static void created(QueryScope s, MetricInfo info, Location at) {
    if (info.exposed()) {
      return;
    }
    EngineCatalog e = info.hit().engine();
    s.report(
        CheckId.UNKNOWN_METRIC,
        at,
        info.sample()
            + " is not exposed: "
            + e.title()
            + " writes _created series from "
            + e.createdSince()
            + " in single-process mode only ("
            + runs(s, e, s.ref.releases(e))
            + ").",
        "",
        info.sample());
  }

  /** Whether a name is spelled like an engine's metrics (a prefix of one of its variants). */
  static boolean inEngineNamespace(QueryScope s, String name) {
    if (name.startsWith("DCGM_")) {
      return true;
    }
    for (EngineCatalog e : s.ref.catalog().engines()) {
      for (NameVariant v : e.variants()) {
        if (!v.prefix().isEmpty() && name.startsWith(v.prefix())) {
          return true;
        }
      }
    }
    return false;
  }

  private static void deprecated(QueryScope s, MetricInfo info, Location at) {
    Reference.CatalogHit hit = info.hit();
    if (hit == null) {
      return;
    }
    // the release of the targets that expose it: an old pod keeps a name the newest dropped
    ReleaseLine v = s.ref.releases(hit.engine()).last();
    for (dev.infermon.llm.inventory.TargetInventory t : info.targets()) {
      if (t.detection().versions() != null) {
        v = t.detection().versions().last();
        break;
      }
    }
    MetricEntry e = entryAround(hit, v);
    History h = e.history();
    if (h.deprecated() != null && v.atLeast(h.deprecated())) {
      s.report(
          CheckId.DEPRECATED_METRIC,
          at,
          info.sample()
              + " is deprecated since "
              + hit.engine().title()
              + " "
              + h.deprecated()
              + gone(h)
              + ".",
          replacement(s, hit, h, info.sample()),
          info.sample());
    }
  }

  /** The entry in effect in {@code v}, hidden ones included; else the newest. */
  private static MetricEntry entryAround(Reference.CatalogHit hit, ReleaseLine v) {
    for (MetricEntry m : hit.entries()) {
      if (m.existsIn(v)) {
        return m;
      }
    }
    return hit.latest();
  }

  /**
   * The product (NVIDIA NIM) whose spelling every endpoint of the hit's engine uses, when that
   * product's subset lacks the family; empty otherwise.
   */
  private static Optional<String> productLacks(QueryScope s, Reference.CatalogHit hit) {
    java.util.Set<dev.infermon.llm.catalog.Spelling> used = s.ref.spellingsOf(hit.engine());
    if (used.isEmpty()) {
      return Optional.empty();
    }
    String product = null;
    for (dev.infermon.llm.catalog.Spelling sp : used) {
      String p = sp.variant().product();
      if (p == null || p.isBlank() || hit.engine().serves(sp.variant(), hit.latest().name())) {
        return Optional.empty();
      }
      product = p;
    }
    return Optional.of(product);
  }

  private static void missing(QueryScope s, MetricInfo info, Location at) {
    String name = info.sample();
    String spelt = NameSpellings.otherSpelling(s, name);
    if (spelt != null) {
      s.report(
          CheckId.PREFIX_SPELLING,
          at,
          name + " is not exposed; the endpoints spell it " + spelt + ".",
          "use " + spelt,
          name);
      return;
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
        return;
      }
    }
    Reference.CatalogHit hit = info.hit();
    if (hit == null) {
      unknown(s, name, at);
      return;
    }
    ReleaseRange r = s.ref.releases(hit.engine());
    String runs = runs(s, hit.engine(), r);
    MetricEntry latest = hit.latest();
    History h = latest.history();
    ReleaseLine gone = h.goneFrom();
    boolean catalogMode = !info.judgedByTargets();
    Optional<String> product = catalogMode ? Optional.empty() : productLacks(s, hit);
    if (product.isPresent()) {
      // the product's subset decides before any release, as in the dashboard's reasons
      s.report(
          CheckId.UNKNOWN_METRIC,
          at,
          product.get()
              + " does not expose "
              + name
              + ": it serves a fixed subset of "
              + hit.engine().title()
              + "'s families, whatever "
              + hit.engine().title()
              + " release it embeds ("
              + runs
              + ").",
          "",
          name);
      return;
    }
    if (gone != null && r.first().atLeast(gone)) {
      String what =
          h.hidden() != null && (h.removed() == null || h.hidden().compareTo(h.removed()) < 0)
              ? "hidden since "
                  + hit.engine().title()
                  + " "
                  + h.hidden()
                  + " (--show-hidden-metrics-for-version brings it back)"
                  + (h.removed() == null ? "" : ", removed in " + h.removed())
              : "removed in " + hit.engine().title() + " " + h.removed();
      s.report(
          CheckId.REMOVED_METRIC,
          catalogMode ? Severity.WARNING : Severity.ERROR,
          at,
          name
              + " is "
              + what
              + (h.deprecated() != null ? " (deprecated in " + h.deprecated() + ")" : "")
              + "; "
              + runs
              + "."
              + RouterNames.alsoRouter(s, info),
          replacement(s, hit, h, name),
          name);
      return;
    }
    if (r.last().compareTo(firstRelease(hit)) < 0 && latest.condition().gated()) {
      // An optional feature of a later release (SGLang's MFU counters from 0.5.10 behind
      // --enable-mfu-metrics): the query is right for fleets that have both, so a warning that
      // names both, as for a flag that is off, not an error.
      s.report(
          CheckId.CONDITIONAL_METRIC_OFF,
          at,
          name
              + " exists only from "
              + hit.engine().title()
              + " "
              + firstRelease(hit)
              + " with "
              + latest.condition().flag()
              + "; "
              + runs
              + ".",
          "upgrade and start the engine with " + latest.condition().flag() + ", or drop the query",
          name);
      return;
    }
    if (r.last().compareTo(firstRelease(hit)) < 0) {
      s.report(
          CheckId.UNKNOWN_METRIC,
          at,
          name
              + " was added in "
              + hit.engine().title()
              + " "
              + firstRelease(hit)
              + "; "
              + runs
              + ".",
          renamedFrom(s, hit, name).map(o -> "on older releases use " + o).orElse(""),
          name);
      return;
    }
    if (latest.condition().gated()) {
      conditional(s, hit, latest, name, at, runs);
      return;
    }
    Optional<String> sibling = catalogMode ? Optional.empty() : writtenWith(s, hit, latest);
    if (sibling.isPresent()) {
      WriterGroup g = hit.engine().writerOf(latest.name()).orElseThrow();
      s.report(
          CheckId.UNKNOWN_METRIC,
          Severity.WARNING,
          at,
          name
              + " is missing from the endpoints although "
              + sibling.get()
              + " is present and "
              + g.writer()
              + " writes them together "
              + g.when()
              + ": the pages are incomplete (cut, or names dropped by relabelling or a proxy) ("
              + runs
              + ").",
          "",
          name);
      return;
    }
    Optional<String> served =
        catalogMode || !latest.lazy() || r.first().compareTo(firstRelease(hit)) < 0
            ? Optional.empty() // a release before the family is as true as "the page lacks it"
            : s.ref.targetsOf(hit.engine()).stream()
                .flatMap(t -> Traffic.served(hit.engine(), t, latest.name()).stream())
                .findFirst();
    if (served.isPresent()) {
      s.report(
          CheckId.UNKNOWN_METRIC,
          Severity.WARNING,
          at,
          name
              + " is missing from the endpoints although "
              + hit.engine().title()
              + " creates it on first use and "
              + served.get()
              + " is not 0 in the window, so requests were served: the pages are incomplete (cut, or"
              + " names dropped by relabelling or a proxy) ("
              + runs
              + ").",
          "",
          name);
      return;
    }
    if (latest.lazy()) {
      ReleaseLine added = firstRelease(hit);
      s.report(
          CheckId.UNKNOWN_METRIC,
          Severity.INFO,
          at,
          r.first().compareTo(added) < 0
              // the range could not be narrowed past the release that added it: either is true
              ? name
                  + " is not exposed: either the endpoints run a release before "
                  + hit.engine().title()
                  + " "
                  + added
                  + ", which added it ("
                  + runs
                  + "), or "
                  + hit.engine().title()
                  + " has not created it yet (it does on first use)."
              : name
                  + " is not exposed yet: "
                  + hit.engine().title()
                  + " creates it on first use (no traffic of that kind so far).",
          "",
          name);
      return;
    }
    s.report(
        CheckId.UNKNOWN_METRIC,
        at,
        name + " is not exposed by any endpoint (" + runs + ").",
        "",
        name);
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
          boolean implied = true;
          for (ReleaseLine v : e.versions()) {
            implied &= !range.contains(v) || !sib.existsIn(v) || latest.exposedIn(v);
          }
          if (implied) {
            return Optional.of(sib.familyName(own));
          }
        }
      }
    }
    return Optional.empty();
  }

  /**
   * A gated family the endpoints lack. A dcgm field of a custom counters CSV is "behind the
   * counters CSV": the exporter has it the moment its CSV lists it.
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
    boolean exporter =
        latest.condition().kind() == Condition.Kind.DCGM_PROFILING
            || latest.condition().kind() == Condition.Kind.HARDWARE;
    s.report(
        CheckId.CONDITIONAL_METRIC_OFF,
        at,
        name + " exists only with " + flag + ", which the endpoints do not set (" + runs + ").",
        (exporter ? "run it where " + flag + " is available" : "start the engine with " + flag)
            + ", or drop the query",
        name);
  }

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
    String renamed = renamedTo(s, name);
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

  /** A current name whose history says it was renamed from {@code name}'s family. */
  private static String renamedTo(QueryScope s, String name) {
    for (EngineCatalog e : s.ref.catalog().engines()) {
      for (NameVariant v : e.variants()) {
        if (v.prefix().isEmpty() ? !name.startsWith("DCGM_") : !name.startsWith(v.prefix())) {
          continue;
        }
        String bare = name.substring(v.prefix().length());
        for (MetricEntry m : e.metrics()) {
          String from = m.history().renamedFrom();
          if (from == null) {
            continue;
          }
          for (String suffix : new String[] {"", "_bucket", "_sum", "_count", "_total"}) {
            if (bare.equals(from + suffix) && existsInTargetReleases(s, e, m.name())) {
              String base = m.familyName(v);
              return suffix.equals("_total") && base.endsWith("_total") ? base : base + suffix;
            }
          }
        }
      }
    }
    return null;
  }

  /** The name the family had before its rename, when the endpoints' releases have it. */
  private static Optional<String> renamedFrom(
      QueryScope s, Reference.CatalogHit hit, String sample) {
    String from = hit.latest().history().renamedFrom();
    if (from == null || !existsInTargetReleases(s, hit.engine(), from)) {
      return Optional.empty();
    }
    return Optional.of(hit.variant().prefix() + from + suffixOf(hit, sample));
  }

  /** The replacement a history names, when the endpoints' releases have it. */
  private static String replacement(
      QueryScope s, Reference.CatalogHit hit, History h, String sample) {
    if (h.replacedBy() == null || !existsInTargetReleases(s, hit.engine(), h.replacedBy())) {
      return "";
    }
    return "use " + hit.variant().prefix() + h.replacedBy() + suffixOf(hit, sample);
  }

  /**
   * Whether some release the engine's targets run (the newest, without targets) exposes the family:
   * a fix must name something the user's endpoints can serve.
   */
  static boolean existsInTargetReleases(QueryScope s, EngineCatalog e, String family) {
    ReleaseRange r = s.ref.releases(e);
    for (ReleaseLine v : e.versions()) {
      if (v.compareTo(r.first()) < 0 || v.compareTo(r.last()) > 0) {
        continue;
      }
      for (MetricEntry m : e.entries(family)) {
        if (m.exposedIn(v)) {
          return true;
        }
      }
    }
    return false;
  }

  /** What the queried sample adds to its family name ({@code _bucket}), for the replacement. */
  private static String suffixOf(Reference.CatalogHit hit, String sample) {
    return sample.startsWith(hit.family()) ? sample.substring(hit.family().length()) : "";
  }

  private static ReleaseLine firstRelease(Reference.CatalogHit hit) {
    ReleaseLine first = null;
    for (MetricEntry m : hit.entries()) {
      if (first == null || m.since().compareTo(first) < 0) {
        first = m.since();
      }
    }
    return first;
  }

  private static String gone(History h) {
    StringBuilder sb = new StringBuilder();
    if (h.hidden() != null) {
      sb.append(", hidden from ").append(h.hidden());
    }
    if (h.removed() != null) {
      sb.append(", removed in ").append(h.removed());
    }
    return sb.toString();
  }

  static String runs(QueryScope s, EngineCatalog engine, ReleaseRange r) {
    if (s.ref.mode() == Reference.Mode.CATALOG || s.ref.targetsOf(engine).isEmpty()) {
      return "judged by " + engine.title() + "'s newest release " + engine.newest();
    }
    return "the endpoints run " + engine.title() + " " + r;
  }
}
