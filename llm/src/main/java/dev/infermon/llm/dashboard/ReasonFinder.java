package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Explains from the inventory and the catalog why a panel, or one engine's part of it, is empty:
 * the engine or its release does not expose the signal (naming the release that does), a flag is
 * off (naming it), the targets are down, no GPU is attributed, or there is no traffic yet.
 * Stateless; thread-safe.
 */
final class ReasonFinder {
  private final Catalog catalog;

  ReasonFinder(Catalog catalog) {
    this.catalog = catalog;
  }

  /** The inference targets the filters and the panel's own matchers select. */
  static Inventory scope(Inventory all, Filters filters, Map<String, String> panelMatch) {
    return all.filter(
        t -> {
          if (t.engine().equals("dcgm")) {
            return false;
          }
          for (Map.Entry<String, String> f : filters.values().entrySet()) {
            String label = f.getKey();
            if (label.equals("model_name")) {
              continue; // not a target label: the queries filter it
            }
            if (!filters.regex() && !t.label(label).equals(f.getValue())) {
              return false;
            }
          }
          for (Map.Entry<String, String> m : panelMatch.entrySet()) {
            if (!t.label(m.getKey()).matches(m.getValue())) {
              return false;
            }
          }
          return true;
        });
  }

  List<EmptyReason> explain(Panel panel, Inventory all, Filters filters) {
    Inventory scoped = scope(all, filters, panel.match());
    Set<EmptyReason> out = new LinkedHashSet<>();
    if (scoped.targets().isEmpty()) {
      out.add(
          new EmptyReason(
              EmptyReason.Kind.NO_TARGETS,
              "",
              "no inference target matches the filters",
              null,
              null));
      return new ArrayList<>(out);
    }
    for (Signal s : panel.signals()) {
      if (s.kind() == Signal.Kind.GPU) {
        gpu(s, all, out);
      } else {
        for (String engine : scoped.engines()) {
          engine(s, catalog.engine(engine), scoped.filter(t -> t.engine().equals(engine)), out);
        }
      }
    }
    return new ArrayList<>(out);
  }

  private void gpu(Signal s, Inventory all, Set<EmptyReason> out) {
    EngineCatalog dcgm = catalog.engine("dcgm");
    List<TargetInventory> exporters = all.filter(t -> t.engine().equals("dcgm")).targets();
    if (exporters.isEmpty()) {
      out.add(
          new EmptyReason(
              EmptyReason.Kind.NO_TARGETS,
              "dcgm",
              "no dcgm-exporter target is scraped: GPU panels need one per node",
              null,
              null));
      return;
    }
    if (exporters.stream().noneMatch(TargetInventory::up)) {
      out.add(
          new EmptyReason(
              EmptyReason.Kind.TARGET_DOWN,
              "dcgm",
              "every dcgm-exporter target is down",
              null,
              null));
      return;
    }
    for (SignalSource src : dcgm.sources(s)) {
      for (String name : src.metrics()) {
        boolean present = exporters.stream().anyMatch(t -> t.families().containsKey(name));
        if (!present) {
          MetricEntry e = dcgm.entries(name).get(0);
          out.add(
              new EmptyReason(
                  e.condition().gated()
                      ? EmptyReason.Kind.BEHIND_FLAG
                      : EmptyReason.Kind.NOT_EXPOSED,
                  "dcgm",
                  name
                      + " is not exported"
                      + (e.condition().gated() ? ": it needs " + e.condition().flag() : ""),
                  null,
                  e.condition().gated() ? e.condition().flag() : null));
          return;
        }
      }
    }
    out.add(
        new EmptyReason(
            EmptyReason.Kind.NOT_ATTRIBUTED,
            "dcgm",
            "no GPU reported by dcgm-exporter is attributed (pod/exported_pod) to the pods in scope",
            null,
            null));
  }

  private void engine(Signal s, EngineCatalog e, Inventory targets, Set<EmptyReason> out) {
    if (targets.targets().stream().noneMatch(TargetInventory::up)) {
      out.add(
          new EmptyReason(
              EmptyReason.Kind.TARGET_DOWN,
              e.engine(),
              "every " + e.title() + " target in scope is down",
              null,
              null));
      return;
    }
    List<SignalSource> sources = e.sources(s);
    if (sources.isEmpty()) {
      out.add(
          new EmptyReason(
              EmptyReason.Kind.NOT_EXPOSED,
              e.engine(),
              e.title() + " does not expose " + s.key() + " in any release",
              null,
              null));
      return;
    }
    for (TargetInventory t : targets.targets()) {
      if (!t.up()) {
        continue;
      }
      if (present(e, sources, t)) {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NO_TRAFFIC,
                e.engine(),
                e.title()
                    + " exposes "
                    + s.key()
                    + " but the range holds no samples or no change yet",
                null,
                null));
        continue;
      }
      ReleaseRange range = t.detection().versions();
      MetricEntry inRange = null;
      SignalSource inRangeSource = null;
      for (SignalSource src : sources) {
        for (String name : src.metrics()) {
          for (MetricEntry m : e.entries(name)) {
            for (ReleaseLine v : e.versions()) {
              if ((range == null || range.contains(v))
                  && m.exposedIn(v)
                  && v.atLeast(src.since())
                  && inRange == null) {
                inRange = m;
                inRangeSource = src;
              }
            }
          }
        }
      }
      String release = range == null ? e.title() : e.title() + " " + range;
      if (inRange == null) {
        MetricEntry first =
            sources.get(0).metrics().isEmpty()
                ? null
                : e.entries(sources.get(0).metrics().get(0)).get(0);
        ReleaseLine since =
            first == null
                ? null
                : (sources.get(0).since() != null ? sources.get(0).since() : first.since());
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NOT_EXPOSED,
                e.engine(),
                release
                    + " does not expose "
                    + s.key()
                    + (first == null
                        ? ""
                        : "; "
                            + first.familyName(spelling(e, t))
                            + " is exposed from "
                            + e.title()
                            + " "
                            + since),
                since == null ? null : since.name(),
                null));
      } else if (inRange.condition().gated()) {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.BEHIND_FLAG,
                e.engine(),
                s.key()
                    + " needs "
                    + inRange.condition().flag()
                    + " ("
                    + inRange.familyName(spelling(e, t))
                    + ")",
                null,
                inRange.condition().flag()));
      } else if (inRange.lazy() || (inRangeSource != null && inRangeSource.zeroWhenAbsent())) {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NO_TRAFFIC,
                e.engine(),
                inRange.familyName(spelling(e, t)) + " appears only once observed: no traffic yet",
                null,
                null));
      } else {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NOT_EXPOSED,
                e.engine(),
                release
                    + " should expose "
                    + inRange.familyName(spelling(e, t))
                    + " but the target does not (stat logging off?)",
                null,
                null));
      }
    }
  }

  /** The target's own spelling, so a reason names what it exposes; the default when unknown. */
  private static NameVariant spelling(EngineCatalog e, TargetInventory t) {
    Spelling s = t.detection().spelling();
    return s != null && s.engine().equals(e.engine()) ? s.variant() : e.variants().get(0);
  }

  private static boolean present(EngineCatalog e, List<SignalSource> sources, TargetInventory t) {
    for (SignalSource src : sources) {
      for (String name : src.metrics()) {
        for (MetricEntry m : e.entries(name)) {
          for (NameVariant v : e.variants()) {
            if (t.families().containsKey(m.familyName(v))) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }
}
