package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.Condition;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  Inventory scope(Inventory all, Filters filters, Map<String, String> panelMatch) {
    return all.filter(
        t -> {
          if (catalog.isGpuExporter(t.engine())) {
            return false;
          }
          for (Map.Entry<String, String> f : filters.values().entrySet()) {
            String label = f.getKey();
            if (label.equals(Filters.ADAPTER)) {
              continue; // inside a family's label values, not a target's label
            }
            if (label.equals("model_name")) {
              // not a target label: a target is out of scope when its series name other models
              if (!filters.regex() && !t.models().isEmpty() && !t.models().contains(f.getValue())) {
                return false;
              }
              continue;
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
    if (scoped.targets().isEmpty()) {
      return List.of(noTargets(panel, all, filters));
    }
    Set<EmptyReason> out = new LinkedHashSet<>();
    boolean pairs =
        scoped.targets().stream().anyMatch(t -> t.label("role").matches(RouterQueries.PAIR_ROLES));
    for (Query q : panel.queries()) {
      if (q.measure() instanceof Measure.Router) {
        out.addAll(RouterReasons.explain((Measure.Router) q.measure(), catalog, all, pairs));
        continue;
      }
      List<Signal> signals = q.measure().signals();
      List<EmptyReason> gpu = new ArrayList<>();
      List<EmptyReason> engines = new ArrayList<>();
      for (Signal s : signals) {
        if (s.kind() == Signal.Kind.GPU) {
          gpu(s, all, gpu, q.measure() instanceof Measure.OfPeak);
        } else {
          for (String engine : scoped.engines()) {
            engine(
                s, catalog.engine(engine), scoped.filter(t -> t.engine().equals(engine)), engines);
          }
        }
      }
      // a measure of several signals is empty when one of them is: the missing one is the reason,
      // and "no traffic" of another part of the same engine (or of any part, for a GPU count) is
      // unproven, so the GPU's reason comes first and the traffic guesses go; "not attributed" is
      // inferred from the GPUs' families being there, so an engine signal the engines in scope
      // lack (MFU's FLOPs of an engine without them) leaves it unproven too
      if (signals.size() > 1 && engines.stream().anyMatch(r -> !guess(r))) {
        gpu.removeIf(r -> r.kind() == EmptyReason.Kind.NOT_ATTRIBUTED);
      }
      List<EmptyReason> reasons = new ArrayList<>(gpu);
      reasons.addAll(engines);
      if (signals.size() > 1) {
        List<EmptyReason> real = reasons.stream().filter(r -> !guess(r)).toList();
        reasons.removeIf(
            r ->
                guess(r)
                    && real.stream()
                        .anyMatch(
                            o ->
                                o.engine().equals(r.engine())
                                    || catalog.isGpuExporter(o.engine())));
      }
      out.addAll(reasons);
    }
    return new ArrayList<>(out);
  }

  /**
   * A reason about a family that is there: unproven when another part of the measure is missing.
   */
  private static boolean guess(EmptyReason r) {
    return r.kind() == EmptyReason.Kind.NO_TRAFFIC || r.kind() == EmptyReason.Kind.NO_MATCH;
  }

  /**
   * Why no inference target is in scope: none is scraped, the filters leave none, or the panel's
   * own matchers ask for a deployment the fleet does not have (prefill/decode roles).
   */
  private EmptyReason noTargets(Panel panel, Inventory all, Filters filters) {
    boolean filtered = !filters.values().isEmpty();
    String message;
    if (scope(all, Filters.NONE, Map.of()).targets().isEmpty()) {
      message = "no inference target is scraped: check discovery on the Targets page";
    } else if (panel.match().isEmpty() || scope(all, filters, Map.of()).targets().isEmpty()) {
      message = "no inference target matches the filters";
    } else {
      message =
          (pairsOnly(panel.match())
                  ? "no prefill/decode deployment: this panel shows only targets whose role is"
                      + " prefill or decode, and none is scraped"
                  : "no target has " + panel.match() + ", which this panel shows")
              + (filtered ? " among those the filters select" : "");
    }
    return new EmptyReason(EmptyReason.Kind.NO_TARGETS, "", message, null, null);
  }

  /**
   * Whether a panel's matchers are the prefill/decode section's: a role of a pair's pods, whatever
   * their backend (the simulator's {@code vllm-pd}, a Dynamo worker's engine or none).
   */
  private static boolean pairsOnly(Map<String, String> match) {
    String role = match.get("role");
    return match.size() == 1
        && role != null
        && (role.equals(RouterQueries.PAIR_ROLES)
            || List.of(RouterQueries.PAIR_ROLES.split("\\|")).contains(role));
  }

  /**
   * Why the GPUs of signal {@code s} are missing; {@code peaks} when the measure divides by the GPU
   * peak table, which GPUs of another model drop out of as unattributed ones do.
   */
  private void gpu(Signal s, Inventory all, List<EmptyReason> out, boolean peaks) {
    List<TargetInventory> exporters = all.filter(t -> catalog.isGpuExporter(t.engine())).targets();
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
      boolean nvidiaOnly = exporters.stream().allMatch(t -> t.engine().equals("dcgm"));
      out.add(
          new EmptyReason(
              EmptyReason.Kind.TARGET_DOWN,
              nvidiaOnly ? "dcgm" : exporters.get(0).engine(),
              nvidiaOnly
                  ? "every dcgm-exporter target is down"
                  : "every GPU exporter target is down",
              null,
              null));
      return;
    }
    // each exporter scraped answers for its own nodes: when one of them has the signal, its GPUs
    // are not the pods' (or their model is not in the peak table); an exporter without any
    // counterpart of it (AMD's, for an NVIDIA-only field) is said beside, as pods on its nodes
    // have none whatever the attribution
    List<EmptyReason> lacking = new ArrayList<>();
    EngineCatalog exported = null;
    for (EngineCatalog e : catalog.gpuExporters()) {
      List<TargetInventory> mine =
          exporters.stream().filter(t -> t.engine().equals(e.engine())).toList();
      if (mine.isEmpty()) {
        continue;
      }
      EmptyReason why = missing(s, e, mine);
      if (why == null) {
        exported = exported == null ? e : exported;
      } else {
        lacking.add(why);
      }
    }
    if (exported != null) {
      out.add(notAttributed(peaks, exported));
      lacking.removeIf(r -> !r.message().contains(NVIDIA_FIELD));
    }
    out.addAll(lacking);
  }

  /** What the reason of a signal an exporter has no counterpart of says. */
  private static final String NVIDIA_FIELD = "an NVIDIA dcgm-exporter field";

  /** Exporter {@code e}'s attribution reason, once every part of the signal is exported. */
  private static EmptyReason notAttributed(boolean peaks, EngineCatalog e) {
    return new EmptyReason(
        EmptyReason.Kind.NOT_ATTRIBUTED,
        e.engine(),
        peaks
            ? "no GPU that "
                + e.title()
                + " attributes (pod/exported_pod) to the pods in scope has a "
                + e.gpuModelLabel()
                + " in the GPU peak table ("
                + String.join(", ", GpuQueries.peakNames())
                + ")"
            : "no GPU reported by "
                + e.title()
                + " is attributed (pod/exported_pod) to the pods in scope",
        null,
        null);
  }

  /**
   * Why exporter {@code e}'s targets lack signal {@code s}, or null when they export it. A signal's
   * sources are alternatives (a GPU is counted from any per-GPU family): it is missing only when
   * every source lacks a family, and the preferred source says how to add it.
   */
  private static EmptyReason missing(Signal s, EngineCatalog e, List<TargetInventory> exporters) {
    if (e.sources(s).isEmpty()) {
      // an NVIDIA-only signal (DCP profiling activity, NVLink) on a node with AMD's exporter
      return new EmptyReason(
          EmptyReason.Kind.NOT_EXPOSED,
          e.engine(),
          s.key()
              + " is read from "
              + NVIDIA_FIELD
              + ", and "
              + e.title()
              + " has no counterpart: its GPUs have no "
              + s.key(),
          null,
          null);
    }
    MetricEntry missing = null;
    List<String> alternatives = new ArrayList<>();
    for (SignalSource src : e.sources(s)) {
      MetricEntry lacking = null;
      for (String name : src.metrics()) {
        alternatives.add(name);
        if (lacking == null && exporters.stream().noneMatch(t -> t.families().containsKey(name))) {
          lacking = e.entries(name).get(0);
        }
      }
      if (lacking == null) {
        return null;
      }
      missing = missing == null ? lacking : missing;
    }
    if (!e.engine().equals("dcgm")) {
      return new EmptyReason(
          EmptyReason.Kind.NOT_EXPOSED,
          e.engine(),
          "no "
              + e.title()
              + " target exports "
              + String.join(" or ", alternatives)
              + ": the exporter config's GPUConfig.Fields may leave it out, or the GPU model does not"
              + " support it (docs/configuration/metricslist.md lists the fields per platform)",
          null,
          null);
    }
    EmptyReason field = missingField(missing);
    return alternatives.size() == 1
        ? field
        : new EmptyReason(
            field.kind(),
            "dcgm",
            "no dcgm-exporter exports a per-GPU family to count GPUs by ("
                + String.join(", ", alternatives)
                + "); "
                + field.message(),
            null,
            field.flag());
  }

  /**
   * A dcgm field no exporter exports: every field is chosen by the exporter's counters CSV, so the
   * fix is always there (a default field missing means a custom CSV that leaves it out).
   */
  private static EmptyReason missingField(MetricEntry e) {
    if (e.condition().kind() == Condition.Kind.CUSTOM_CSV) {
      return new EmptyReason(
          EmptyReason.Kind.BEHIND_FLAG,
          "dcgm",
          e.name() + " is not exported: " + e.condition().flag(),
          null,
          e.condition().flag());
    }
    if (e.condition().gated()) {
      return new EmptyReason(
          EmptyReason.Kind.BEHIND_FLAG,
          "dcgm",
          e.name() + " is not exported: it needs " + e.condition().flag(),
          null,
          e.condition().flag());
    }
    String add = "add " + e.name() + " to the exporter's counters CSV (-f)";
    if (e.condition().kind() == Condition.Kind.HARDWARE) {
      // a default field of hardware the GPU may lack: DCGM answers blank there and the exporter
      // skips blank values (dcgm-ack.md 1.3), which a CSV leaving it out cannot be told from
      return new EmptyReason(
          EmptyReason.Kind.NOT_EXPOSED,
          "dcgm",
          e.name()
              + " is in dcgm-exporter's default counters CSV but no exporter exports it: the GPUs"
              + " may lack "
              + e.condition().flag()
              + " (DCGM reports the field blank and the exporter skips blank values), or the"
              + " counters CSV leaves it out; if they have it, "
              + add,
          null,
          null);
    }
    return new EmptyReason(
        EmptyReason.Kind.BEHIND_FLAG,
        "dcgm",
        e.name()
            + " is in dcgm-exporter's default counters CSV but no exporter exports it: its counters"
            + " CSV leaves it out; "
            + add,
        null,
        add);
  }

  private void engine(Signal s, EngineCatalog e, Inventory targets, List<EmptyReason> out) {
    if (targets.targets().stream().noneMatch(TargetInventory::up)) {
      out.add(
          new EmptyReason(
              EmptyReason.Kind.TARGET_DOWN,
              e.engine(),
              "every "
                  + e.title()
                  + " target in scope is down"
                  + (e.metricsOff().isEmpty() ? "" : ": " + e.metricsOff()),
              null,
              null));
      return;
    }
    List<SignalSource> sources = e.sources(s);
    if (sources.isEmpty()) {
      for (EngineCatalog c : catalog.runningIn(e.engine())) {
        if (!c.sources(s).isEmpty()) {
          // a component inside the engine's process (LMCache in vLLM) has the signal: its families
          // are on these very pages, or the component is not there
          for (TargetInventory t : targets.targets()) {
            if (t.up()) {
              out.add(
                  new EngineReasons(c, t)
                      .explainHosted(
                          s,
                          c.sources(s),
                          t,
                          e,
                          catalog.servedThrough(t.detection().features(), t.engine())));
            }
          }
          return;
        }
      }
      for (EngineCatalog c : catalog.engines()) {
        if (!c.runsIn().isEmpty() && !c.sources(s).isEmpty()) {
          // a component of another engine's (LMCache): what the catalog says of this engine's pods,
          // one clause for all of its signals
          Optional<String> why = c.absentOn(e.engine());
          if (why.isPresent()) {
            out.add(
                new EmptyReason(EmptyReason.Kind.NOT_EXPOSED, e.engine(), why.get(), null, null));
            return;
          }
        }
      }
      out.add(
          new EmptyReason(
              EmptyReason.Kind.NOT_EXPOSED,
              e.engine(),
              e.title()
                  + " does not expose "
                  + s.displayName()
                  + " in any release"
                  + e.exposesInstead(s).map(x -> ": it exposes " + x).orElse(""),
              null,
              null));
      return;
    }
    for (TargetInventory t : targets.targets()) {
      if (t.up()) {
        out.add(new EngineReasons(e, t).explain(s, sources, t));
      }
    }
  }
}
