package dev.infermon.llm.diagnosis;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.rules.AlertAnnotator;
import dev.infermon.rules.AlertNotifier;
import dev.infermon.rules.AlertSnapshot;
import dev.infermon.rules.EngineQueryFunction;
import dev.infermon.rules.RuleGroup;
import dev.infermon.rules.RuleManager;
import dev.infermon.rules.RuleManagerOptions;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The default alert pack as {@code infermon serve} loads it (every engine of the catalog, default
 * thresholds), evaluated by the rules module's own groups over a storage, the way the rule manager
 * runs them: call {@link #eval} at each evaluation time, after that time's samples are stored. What
 * fires is what the real rule engine says fires, with the pack's {@code for}; its {@code ALERTS}
 * series go into the same storage. Not thread-safe.
 */
final class PackAlerts {
  /** The symptom each alert of the pack watches. */
  static final Map<String, Symptom> SYMPTOMS =
      Map.of(
          AlertPack.TTFT, Symptom.TTFT_HIGH,
          AlertPack.QUEUED, Symptom.QUEUED_WHILE_PREEMPTING,
          AlertPack.FAILURES, Symptom.FAILURES_HIGH);

  /** One firing alert: its name and the labels the pack groups by. */
  record Firing(String alert, String namespace, String model) {}

  private final List<RuleGroup> groups;

  PackAlerts(MemoryStorage storage) {
    this(storage, AlertAnnotator.NONE);
  }

  /** The pack whose alerts {@code annotator} annotates at each evaluation (as serve wires it). */
  PackAlerts(MemoryStorage storage, AlertAnnotator annotator) {
    String pack =
        AlertPack.ruleFile(
            Catalog.builtIn(), new LinkedHashSet<>(Catalog.ENGINES), LlmConfig.Alerts.DEFAULT);
    RuleManagerOptions opts =
        RuleManagerOptions.defaults(
                new EngineQueryFunction(new Engine(EngineOptions.DEFAULTS), storage),
                storage,
                storage,
                AlertNotifier.NONE)
            .withAnnotator(annotator, RuleManagerOptions.DEFAULT_ANNOTATOR_TIMEOUT);
    groups =
        new ArrayList<>(
            RuleManager.groups(
                List.of(RuleFileParser.parse("default-alerts.yml", pack)), opts, false));
    groups.forEach(RuleGroup::markRestored);
  }

  /** Evaluates every rule of the pack at {@code t} (ms). */
  void eval(long t) {
    for (RuleGroup g : groups) {
      g.eval(t);
      if (!g.lastErrors().isEmpty()) {
        throw new AssertionError("the alert pack failed to evaluate: " + g.lastErrors());
      }
    }
  }

  /** The alerts firing after the last evaluation, with their annotations. */
  Map<Firing, Map<String, String>> firingAnnotations() {
    Map<Firing, Map<String, String>> out = new java.util.LinkedHashMap<>();
    for (RuleGroup g : groups) {
      for (String alert : SYMPTOMS.keySet()) {
        for (AlertSnapshot a : g.firingAlerts(alert)) {
          out.put(
              new Firing(alert, a.labels().get("namespace"), a.labels().get("model_name")),
              a.annotations().toMap());
        }
      }
    }
    return out;
  }

  /** The alerts named {@code alert} firing after the last evaluation, as the rule holds them. */
  List<AlertSnapshot> firingSnapshots(String alert) {
    List<AlertSnapshot> out = new ArrayList<>();
    for (RuleGroup g : groups) {
      out.addAll(g.firingAlerts(alert));
    }
    return out;
  }

  /** The labels of the alerts named {@code alert} firing after the last evaluation. */
  List<Map<String, String>> firingLabels(String alert) {
    List<Map<String, String>> out = new ArrayList<>();
    for (RuleGroup g : groups) {
      for (AlertSnapshot a : g.firingAlerts(alert)) {
        out.add(a.labels().toMap());
      }
    }
    return out;
  }

  /** The alerts firing after the last evaluation. */
  Set<Firing> firing() {
    Set<Firing> out = new LinkedHashSet<>();
    for (RuleGroup g : groups) {
      for (String alert : SYMPTOMS.keySet()) {
        for (AlertSnapshot a : g.firingAlerts(alert)) {
          out.add(new Firing(alert, a.labels().get("namespace"), a.labels().get("model_name")));
        }
      }
    }
    return out;
  }
}
