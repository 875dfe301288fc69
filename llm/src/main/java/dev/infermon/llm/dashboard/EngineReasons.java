package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.History;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.catalog.WriterGroup;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.inventory.Traffic;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Why one engine's target shows nothing for one signal, from the catalog and what the target
 * exposes. The order of the checks is the order of truth: a source that applies to the target's
 * release and is present (then only traffic is missing); no source in the release (naming the
 * earliest release any source has, or when the signal's families were removed); a flag; a family
 * absent although the writer that writes it with a present sibling runs (the page lacks it); a
 * family created on first use; and only then the writer itself being off. Stateless.
 */
final class EngineReasons {
  private final EngineCatalog e;
  private final NameVariant spelling; // the target's own, so a reason names what it exposes

  EngineReasons(EngineCatalog e, TargetInventory t) {
    this.e = e;
    Spelling s = t.detection().spelling();
    this.spelling = s != null && s.engine().equals(e.engine()) ? s.variant() : e.variants().get(0);
  }

  EmptyReason explain(Signal s, List<SignalSource> all, TargetInventory t) {
    List<SignalSource> sources = all;
    ReleaseRange range = t.detection().versions();
    Optional<FamilyInfo> shown = present(sources, t, range);
    if (shown.isPresent()) {
      return traffic(s, shown.get(), sources);
    }
    Optional<MetricEntry> unserved = product() ? unserved(sources) : Optional.empty();
    if (unserved.isPresent()) {
      return productSubset(unserved.get().familyName(spelling));
    }
    // a source only another product serves (NIM's request_failure_total) explains nothing here
    sources = all.stream().filter(src -> src.metrics().stream().allMatch(this::explains)).toList();
    String release = range == null ? e.title() : e.title() + " " + range;
    Candidate in = inRange(sources, range);
    if (in == null) {
      return notInRelease(s, sources, range, release);
    }
    String family = in.entry.familyName(spelling);
    String role = t.label("role");
    if (!role.isEmpty() && in.entry.notOnRoles().containsKey(role)) {
      // the engine never writes it on this role's servers: not a cut page, not an older release
      return reason(
          EmptyReason.Kind.NOT_EXPOSED,
          family
              + " is never written on a "
              + e.title()
              + " "
              + role
              + " server: "
              + in.entry.notOnRoles().get(role),
          null,
          null);
    }
    if (in.entry.condition().gated() && !flagShown(in.entry, t)) {
      return reason(
          EmptyReason.Kind.BEHIND_FLAG,
          e.title()
              + " exposes "
              + s.displayName()
              + " only with "
              + in.entry.condition().flag()
              + " ("
              + family
              + ")",
          null,
          in.entry.condition().flag());
    }
    Optional<String> sibling = presentSibling(in.entry, sources, t, range);
    if (sibling.isPresent()) {
      WriterGroup g = e.writerOf(in.entry.name()).orElseThrow();
      // the writer runs, so the signal's family was written too: something after it dropped it
      return reason(
          EmptyReason.Kind.NOT_EXPOSED,
          families(g, sources, range)
              + " missing from this endpoint although "
              + sibling.get()
              + " is present and "
              + g.writer()
              + " writes them together "
              + g.when()
              + ": the page is incomplete (cut, or names dropped by relabelling or a proxy)",
          null,
          null);
    }
    return absent(in, family, release, range, t);
  }

  /**
   * Why host {@code host}'s target shows nothing for {@code s}, a signal of this component (LMCache
   * inside vLLM): its families on the page say traffic; a product embedding the host that the
   * catalog says does not load it (NVIDIA NIM) says so; otherwise the component does not run there,
   * in the catalog's words for the host's release and for the engines the target is served through
   * ({@code servedThrough}: a Dynamo worker is started by Dynamo's switches), {@link
   * HostedAbsence}. No signal is named: one clause holds for all of the component's families, so a
   * panel says it once per engine and release band.
   */
  EmptyReason explainHosted(
      Signal s,
      List<SignalSource> sources,
      TargetInventory t,
      EngineCatalog host,
      Set<String> servedThrough) {
    Optional<FamilyInfo> shown = present(sources, t, null);
    if (shown.isPresent()) {
      return traffic(s, shown.get(), sources);
    }
    NameVariant own = t.detection().spelling() == null ? null : t.detection().spelling().variant();
    if (own != null && own.product() != null && !own.product().isBlank()) {
      Optional<String> why = e.absentOn(own.product());
      if (why.isPresent()) {
        return new EmptyReason(EmptyReason.Kind.NOT_EXPOSED, host.engine(), why.get(), null, null);
      }
    }
    String flag = e.entries(sources.get(0).metrics().get(0)).get(0).condition().flag();
    return HostedAbsence.reason(
        e, host, e.absences(host, t.detection().versions(), servedThrough), flag);
  }

  /** A source family is on the target: what its samples did says whether traffic is the reason. */
  private EmptyReason traffic(Signal s, FamilyInfo f, List<SignalSource> sources) {
    switch (f.activity()) {
      case CHANGING:
        boolean lazy =
            e.entries(f.name().substring(spelling.prefix().length())).stream()
                .anyMatch(MetricEntry::lazy);
        if (lazy && sources.stream().noneMatch(src -> src.match().isEmpty())) {
          // a lazy engine creates a label value's series on its first event (TGI's
          // err="overloaded"): other values changing says nothing of this one
          return reason(
              EmptyReason.Kind.NO_TRAFFIC,
              f.name()
                  + " changes in the range but has no "
                  + f.name()
                  + matchers(sources.get(0))
                  + " series yet: one appears on the first such event",
              null,
              null);
        }
        return reason(
            EmptyReason.Kind.NO_MATCH,
            f.name()
                + " changes in the range but the panel's query selects none of its series: a"
                + " filter (model_name) or a label the query needs leaves them out",
            null,
            null);
      case ZERO:
      case FLAT:
        return reason(
            EmptyReason.Kind.NO_TRAFFIC,
            f.name() + " did not change in the range: no traffic of that kind",
            null,
            null);
      default:
        return reason(
            EmptyReason.Kind.NO_TRAFFIC,
            e.title()
                + " exposes "
                + s.displayName()
                + " but the range holds no samples or no change yet",
            null,
            null);
    }
  }

  /** In the release but absent, with no sibling to show the writer ran. */
  private EmptyReason absent(
      Candidate in, String family, String release, ReleaseRange range, TargetInventory t) {
    if (product() && !e.serves(spelling, in.entry.name())) {
      return productSubset(family);
    }
    boolean lazy = in.entry.lazy() || in.source.zeroWhenAbsent();
    // created on the first request, and the samples show requests were served: the page owes it;
    // not a failure counter whose absence means zero (created on the first failure, which served
    // requests do not imply: TensorRT-LLM's request_error_total)
    Optional<String> served =
        in.entry.lazy() && !in.source.zeroWhenAbsent()
            ? Traffic.served(e, t, in.entry.name())
            : Optional.empty();
    if (!existsThroughout(in.entry, range)) {
      return reason(
          EmptyReason.Kind.NOT_EXPOSED,
          family
              + " exists from "
              + e.title()
              + " "
              + in.entry.since()
              + " and this target ("
              + release
              + ") does not expose it: it runs an older release, or "
              + (lazy && served.isEmpty()
                  ? "nothing has created it yet (it appears on first use)"
                  : "the page lacks it"),
          in.entry.since().name(),
          null);
    }
    if (served.isPresent()) {
      return reason(
          EmptyReason.Kind.NOT_EXPOSED,
          family
              + " is created on first use and "
              + served.get()
              + " is not 0 in the window, so requests were served: the page lacks it (cut, or names"
              + " dropped by relabelling or a proxy)",
          null,
          null);
    }
    if (lazy) {
      // a target that served requests has traffic: only none of this family's kind (a prefix-cache
      // hit, a retraction, a failure) yet
      Optional<String> busy = Traffic.evidence(e, t);
      return reason(
          EmptyReason.Kind.NO_TRAFFIC,
          family
              + " appears only once observed: "
              + busy.map(
                      b ->
                          b
                              + " is not 0 in the window, so requests were served, but none of"
                              + " that kind yet")
                  .orElse("no traffic yet"),
          null,
          null);
    }
    return reason(
        EmptyReason.Kind.NOT_EXPOSED,
        release
            + " should expose "
            + family
            + " but the target does not: check that "
            + (e.metricsOn().isEmpty() ? "the engine's metrics are on" : e.metricsOn())
            + " and that the scrape reaches its /metrics",
        null,
        null);
  }

  /**
   * The first source family of a product that serves none of the signal's sources (NVIDIA NIM's
   * subset of vLLM): its subset decides before any release or flag, since neither an engine upgrade
   * nor a flag the product does not pass through would bring the family.
   */
  private Optional<MetricEntry> unserved(List<SignalSource> sources) {
    MetricEntry first = null;
    for (SignalSource src : sources) {
      for (String name : src.metrics()) {
        if (e.serves(spelling, name)) {
          return Optional.empty();
        }
        if (first == null && !e.entries(name).isEmpty()) {
          first = e.entries(name).get(0);
        }
      }
    }
    return Optional.ofNullable(first);
  }

  /**
   * Whether the target's spelling is a product's that embeds the engine (NIM's), whose subset, not
   * a release, decides what it serves; TensorRT-LLM 1.0's unprefixed spelling is the engine's own,
   * written by one release: what it lacks came in a later one.
   */
  private boolean product() {
    return spelling.product() != null && !spelling.product().isBlank();
  }

  /**
   * Whether family {@code name} can explain an absence on this target: one the spelling serves, or
   * for a release's spelling one no other product owns.
   */
  private boolean explains(String name) {
    return product() ? e.serves(spelling, name) : !e.ownedElsewhere(spelling, name);
  }

  /**
   * The family's name on this target, or, where the target's spelling never carries it (a later
   * release's family on TensorRT-LLM 1.0), the engine's own name for it.
   */
  private String familyName(MetricEntry m) {
    return e.serves(spelling, m.name())
        ? m.familyName(spelling)
        : m.familyName(e.variants().get(0));
  }

  /** A product embedding the engine: its subset, not the release or a setting, leaves it out. */
  private EmptyReason productSubset(String family) {
    return reason(
        EmptyReason.Kind.NOT_EXPOSED,
        spelling.product()
            + " does not expose "
            + family
            + ": it serves a fixed subset of "
            + e.title()
            + "'s families, whatever "
            + e.title()
            + " release it embeds, and this one is not among them",
        null,
        null);
  }

  /** The signal is in no release of the range: since when it exists, or since when it is gone. */
  private EmptyReason notInRelease(
      Signal s, List<SignalSource> sources, ReleaseRange range, String release) {
    Candidate earliest = null;
    Candidate latest = null; // the source that lasted longest, for a removed signal
    boolean later = false;
    for (SignalSource src : sources) {
      for (String name : src.metrics()) {
        for (MetricEntry m : e.entries(name)) {
          ReleaseLine start = start(src, m);
          if (earliest == null || start.before(earliest.start)) {
            earliest = new Candidate(m, src, start);
          }
          // hidden counts as gone: only --show-hidden-metrics-for-version brings it back
          ReleaseLine gone = m.history().goneFrom();
          if (gone == null || range == null || !range.first().atLeast(gone)) {
            later = true;
          } else if (latest == null || latest.entry.history().goneFrom().before(gone)) {
            latest = new Candidate(m, src, start);
          }
        }
      }
    }
    if (earliest == null) {
      return reason(
          EmptyReason.Kind.NOT_EXPOSED,
          release + " does not expose " + s.displayName(),
          null,
          null);
    }
    if (!later && latest != null) {
      return removed(s, latest.entry, release, range);
    }
    String note = earliest.source.note() == null ? "" : " (" + earliest.source.note() + ")";
    String family = familyName(earliest.entry);
    // a source that applies later than its family exists (V1's abort and error reasons of the
    // success counter V0 already had) names the series that carry it, not the family's birth
    String from =
        earliest.start.equals(earliest.entry.since())
            ? family + " is exposed from "
            : family + matchers(earliest.source) + " counts it from ";
    return reason(
        EmptyReason.Kind.NOT_EXPOSED,
        release
            + " does not expose "
            + s.displayName()
            + note
            + "; "
            + from
            + e.title()
            + " "
            + earliest.start,
        earliest.start.name(),
        null);
  }

  private static String matchers(SignalSource src) {
    List<String> m = new ArrayList<>();
    src.match().forEach((k, v) -> m.add(k + "=~\"" + v + "\""));
    return m.isEmpty() ? "" : "{" + String.join(",", m) + "}";
  }

  /** Every source family was gone before the range: when, and what replaced it. */
  private EmptyReason removed(Signal s, MetricEntry m, String release, ReleaseRange range) {
    String replaced =
        m.history().replacedBy() == null
            ? "nothing replaced it"
            : "replaced by " + e.title() + "'s " + m.history().replacedBy();
    String why = m.history().note() == null ? "" : " (" + m.history().note() + ")";
    return reason(
        EmptyReason.Kind.REMOVED,
        m.familyName(spelling)
            + " was "
            + life(m)
            + why
            + " and "
            + replaced
            + ": "
            + release
            + " has no "
            + s.displayName()
            + hiddenHint(e.versions(), m.history(), range),
        null,
        null);
  }

  /**
   * Where the target may run a release that hides the family rather than dropping it: vLLM's escape
   * hatch. "Deprecated in X.Y, hidden in X.Y+1 but can be re-enabled by
   * --show-hidden-metrics-for-version=X.Y" (https://docs.vllm.ai/en/v0.12.0/usage/metrics/); the
   * value must be the minor release before the one running ({@code _prev_minor_version_was},
   * vllm/version.py), so a family hidden for several releases takes a different value on each, and
   * one deprecated in a patch release (0.9.2) takes the minor before its hiding release (0.10 on
   * 0.11), not the deprecating one.
   */
  static String hiddenHint(List<ReleaseLine> versions, History h, ReleaseRange range) {
    if (h.hidden() == null || range == null) {
      return "";
    }
    // previous minor -> the releases of the target's range that take it
    java.util.Map<String, List<ReleaseLine>> byValue = new java.util.LinkedHashMap<>();
    for (ReleaseLine r : versions) {
      boolean hidden = r.atLeast(h.hidden()) && (h.removed() == null || r.before(h.removed()));
      if (hidden && r.atLeast(range.first()) && !range.last().before(r)) {
        byValue.computeIfAbsent(previousMinor(r), k -> new ArrayList<>()).add(r);
      }
    }
    if (byValue.isEmpty()) {
      return "";
    }
    String until = h.removed() == null ? "" : " until its removal in " + h.removed();
    String value;
    if (byValue.size() == 1) {
      value = byValue.keySet().iterator().next();
    } else {
      List<String> pairs = new ArrayList<>();
      byValue.forEach((v, rs) -> pairs.add(v + " on " + span(rs)));
      value = "<the minor before the running release: " + String.join(", ", pairs) + ">";
    }
    return "; from "
        + h.hidden()
        + until
        + " it is hidden, not removed: --show-hidden-metrics-for-version="
        + value
        + " brings it back";
  }

  /** "0.12" for 0.13 and 0.13.1, "0.8" for 0.9.2: what vLLM compares the flag's value with. */
  static String previousMinor(ReleaseLine r) {
    String[] parts = r.name().split("\\.");
    return parts[0] + "." + (Integer.parseInt(parts[1]) - 1);
  }

  private static String span(List<ReleaseLine> rs) {
    ReleaseLine first = rs.get(0);
    ReleaseLine last = rs.get(rs.size() - 1);
    return first.equals(last) ? first.name() : first.name() + "–" + last.name();
  }

  /** "deprecated in vLLM 0.8, hidden in 0.9 and removed in 0.10": the steps the catalog knows. */
  private String life(MetricEntry m) {
    List<String> steps = new ArrayList<>();
    if (m.history().deprecated() != null) {
      steps.add("deprecated in " + m.history().deprecated());
    }
    if (m.history().hidden() != null) {
      steps.add("hidden in " + m.history().hidden());
    }
    if (m.history().removed() != null) {
      steps.add("removed in " + m.history().removed());
    }
    String last = steps.remove(steps.size() - 1);
    String all = steps.isEmpty() ? last : String.join(", ", steps) + " and " + last;
    return all.replaceFirst(" in ", " in " + e.title() + " ");
  }

  /** The first release where {@code src} reads {@code m}. */
  private static ReleaseLine start(SignalSource src, MetricEntry m) {
    return src.since() != null && src.since().atLeast(m.since()) ? src.since() : m.since();
  }

  private record Candidate(MetricEntry entry, SignalSource source, ReleaseLine start) {}

  /** The first source family exposed in some release of the range where its source applies. */
  private Candidate inRange(List<SignalSource> sources, ReleaseRange range) {
    for (SignalSource src : sources) {
      for (String name : src.metrics()) {
        for (MetricEntry m : e.entries(name)) {
          for (ReleaseLine v : e.versions()) {
            if ((range == null || range.contains(v))
                && m.exposedIn(v)
                && v.atLeast(start(src, m))) {
              return new Candidate(m, src, start(src, m));
            }
          }
        }
      }
    }
    return null;
  }

  /**
   * A family on the target of a source that applies to some release of the range, the one whose
   * samples moved most when several are.
   */
  private Optional<FamilyInfo> present(
      List<SignalSource> sources, TargetInventory t, ReleaseRange range) {
    FamilyInfo best = null;
    for (SignalSource src : sources) {
      if (src.since() != null && range != null && range.last().before(src.since())) {
        continue; // V0's request_success_total is no failure count, whatever its samples
      }
      for (String name : src.metrics()) {
        for (MetricEntry m : e.entries(name)) {
          for (NameVariant v : e.variants()) {
            FamilyInfo f = t.families().get(m.familyName(v));
            if (f != null && (best == null || f.activity().compareTo(best.activity()) > 0)) {
              best = f;
            }
          }
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Whether the target shows another family behind the same flag, so the flag is on and the
   * family's absence has another cause (TensorRT-LLM 1.3 has kv_cache_utilization of
   * enable_iter_perf_stats, but not yet num_requests_running): a family registered anyway says
   * nothing of the flag.
   */
  private boolean flagShown(MetricEntry missing, TargetInventory t) {
    for (MetricEntry m : e.metrics()) {
      if (m != missing
          && m.condition().gated()
          && m.condition().kind() == missing.condition().kind()
          && m.condition().flag().equals(missing.condition().flag())
          && onTarget(m, t)) {
        return true;
      }
    }
    return false;
  }

  private boolean onTarget(MetricEntry m, TargetInventory t) {
    for (NameVariant v : e.variants()) {
      if (t.families().containsKey(m.familyName(v))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A family written with {@code missing} that the target has, where every release of the range
   * that has the sibling also shows one of the signal's source families: the sibling's presence
   * proves the writer wrote the signal too.
   */
  private Optional<String> presentSibling(
      MetricEntry missing, List<SignalSource> sources, TargetInventory t, ReleaseRange range) {
    Optional<WriterGroup> g = e.writerOf(missing.name());
    // wrappers may drop zero samples (Ray skips inc(0)): only the engine's own spelling proves it
    if (g.isEmpty() || !e.variants().get(0).prefix().equals(t.detection().prefix())) {
      return Optional.empty();
    }
    for (String name : g.get().metrics()) {
      for (MetricEntry sib : e.entries(name)) {
        if (name.equals(missing.name()) || !onTarget(sib, t)) {
          continue;
        }
        boolean implied = true;
        for (ReleaseLine v : e.versions()) {
          if ((range == null || range.contains(v))
              && sib.existsIn(v)
              && !shown(g.get(), sources, v)) {
            implied = false;
          }
        }
        if (implied) {
          return Optional.of(sib.familyName(spelling));
        }
      }
    }
    return Optional.empty();
  }

  /** Whether a source family of the signal in group {@code g} applies to {@code v} and is shown. */
  private boolean shown(WriterGroup g, List<SignalSource> sources, ReleaseLine v) {
    for (SignalSource src : sources) {
      for (String name : src.metrics()) {
        if (!g.metrics().contains(name)) {
          continue;
        }
        for (MetricEntry m : e.entries(name)) {
          if (m.exposedIn(v) && v.atLeast(start(src, m))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** "a is" / "a and b are": the signal's families of {@code g} shown in the range. */
  private String families(WriterGroup g, List<SignalSource> sources, ReleaseRange range) {
    List<String> names = new ArrayList<>();
    for (SignalSource src : sources) {
      for (String name : src.metrics()) {
        if (!g.metrics().contains(name)) {
          continue;
        }
        for (MetricEntry m : e.entries(name)) {
          String f = m.familyName(spelling);
          boolean inRange = false;
          for (ReleaseLine v : e.versions()) {
            inRange |= (range == null || range.contains(v)) && m.exposedIn(v);
          }
          if (inRange && !names.contains(f)) {
            names.add(f);
          }
        }
      }
    }
    if (names.size() == 1) {
      return names.get(0) + " is";
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + " and "
        + names.get(names.size() - 1)
        + " are";
  }

  /** Whether every release of the range shows {@code m} by default. */
  private boolean existsThroughout(MetricEntry m, ReleaseRange range) {
    for (ReleaseLine v : e.versions()) {
      if ((range == null || range.contains(v)) && !m.exposedIn(v)) {
        return false;
      }
    }
    return true;
  }

  private EmptyReason reason(EmptyReason.Kind kind, String message, String version, String flag) {
    return new EmptyReason(kind, e.engine(), message, version, flag);
  }
}
