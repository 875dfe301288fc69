package dev.infermon.llm.diagnosis;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds an {@link Incident}: finds the alert's last firing in its {@code ALERTS} series, reads the
 * rule's expression for the alert over the view, and re-runs the diagnosis {@link AlertCauses}
 * gives the alert at steps over the view, keeping the changes. Reached through {@link
 * DiagnosisService#incident}. Stateless; thread-safe when the backend is.
 *
 * <p>Cost: one range query over {@code ALERTS}, one of the expression, and one diagnosis (about 30
 * range queries over its default window) per evaluation, at most {@link #MAX_EVALUATIONS}.
 */
final class Incidents {
  /** Diagnoses per incident, at most: each is about 30 range queries. */
  static final int MAX_EVALUATIONS = 16;

  /** Diagnosis is evaluated no more often than this: rules evaluate about once a minute. */
  static final long MIN_EVALUATION_STEP_MS = 60_000;

  /** {@code Diagnosis.pods()}'s {@code namespace/pod (model)}. */
  private static final Pattern POD = Pattern.compile("([^/]*)/(.+) \\((.*)\\)");

  private final QueryBackend backend;
  private final AlertCauses causes;
  private final LongFunction<Diagnosis> diagnose;

  /** {@code diagnose} gives the diagnosis of the default window ending at its argument (ms). */
  Incidents(QueryBackend backend, AlertCauses causes, LongFunction<Diagnosis> diagnose) {
    this.backend = backend;
    this.causes = causes;
    this.diagnose = diagnose;
  }

  /**
   * The incident of the alert's last firing in {@code [endMs - lookbackMs, endMs]}, or empty when
   * it did not fire then.
   */
  Optional<Incident> incident(IncidentRequest r, long endMs, long lookbackMs, long leadInMs) {
    Optional<long[]> firing = lastFiring(r.labels(), endMs, lookbackMs);
    if (firing.isEmpty() && r.firingSinceMs().isPresent()) {
      firing = Optional.of(new long[] {r.firingSinceMs().getAsLong(), endMs, 0});
    }
    if (firing.isEmpty()) {
      return Optional.empty();
    }
    long firingStart = firing.get()[0];
    boolean resolved = firing.get()[2] == 1;
    long firingEnd = resolved ? firing.get()[1] : endMs;
    long start = firingStart - leadInMs;
    long step = DiagnosisService.step(firingEnd - start);
    start = Math.floorDiv(start, step) * step;
    Incident.Series symptom = symptom(r, start, firingEnd, step);
    List<Long> times = evaluations(start, firingEnd);
    Map<String, String> labels = r.labels();
    boolean speaks =
        (labels.containsKey("model_name") || labels.containsKey("pod"))
            && causes.readsCatalogFamily(r.expr());
    List<Incident.Cause> timeline = new ArrayList<>();
    // per pod named, its states in the chain's order
    Map<String, TreeMap<State, Finding>> named = new LinkedHashMap<>();
    Map<String, Incident.Pod> modelPods = new LinkedHashMap<>();
    if (speaks) {
      for (long t : times) {
        Diagnosis d = diagnose.apply(t);
        List<Finding> matching = AlertCauses.matching(d, r.alertName(), labels);
        add(timeline, t, matching, r.alertName(), labels);
        for (Finding f : matching) {
          if (!f.pod().isEmpty()) {
            named
                .computeIfAbsent(f.namespace() + "/" + f.pod(), k -> new TreeMap<>())
                .put(f.state(), f);
          }
        }
        modelPods.putAll(modelPods(d, labels));
      }
    }
    return Optional.of(
        new Incident(
            labels,
            r.expr(),
            firingStart,
            firingEnd,
            resolved,
            start,
            firingEnd,
            step,
            symptom,
            timeline,
            speaks ? times : List.of(),
            involved(labels, pods(named), modelPods),
            speaks
                ? ""
                : "diagnosis does not speak to this alert: it needs a model_name or pod label and"
                    + " an expression over an engine's metrics"));
  }

  /**
   * {@code [first, last, resolved]} of the last run of consecutive steps at which the alert's
   * {@code ALERTS{alertstate="firing"}} series has a point: resolved (1) when the run ends before
   * the last step. A resolved alert's series ends at once (the rule writes a staleness marker).
   */
  private Optional<long[]> lastFiring(Map<String, String> labels, long endMs, long lookbackMs) {
    long step = Math.max(15_000, (lookbackMs / 10_000 + 999) / 1000 * 1000);
    long from = endMs - lookbackMs;
    Map<String, String> selector = new HashMap<>(labels);
    selector.put("__name__", "ALERTS");
    selector.put("alertstate", "firing");
    QueryResult res = backend.rangeQuery(Labels.fromMap(selector).toString(), from, endMs, step);
    long lastGrid = from + (endMs - from) / step * step;
    for (TimeSeries s : matrix(res).series()) {
      Map<String, String> own = new HashMap<>(s.labels().toMap());
      own.remove("__name__");
      own.remove("alertstate");
      if (!own.equals(labels) || s.size() == 0) {
        continue;
      }
      int i = s.size() - 1;
      long last = s.timestampAt(i);
      while (i > 0 && s.timestampAt(i - 1) == s.timestampAt(i) - step) {
        i--;
      }
      return Optional.of(new long[] {s.timestampAt(i), last, last < lastGrid ? 1 : 0});
    }
    return Optional.empty();
  }

  /**
   * The expression's series for the alert: one whose every label has the alert's value (the alert's
   * labels are the series' plus the rule's), the one with the most labels first.
   */
  private Incident.Series symptom(IncidentRequest r, long start, long end, long step) {
    TimeSeries best = null;
    for (TimeSeries s : matrix(backend.rangeQuery(r.expr(), start, end, step)).series()) {
      Map<String, String> own = s.labels().withoutMetricName().toMap();
      boolean ours = true;
      for (Map.Entry<String, String> e : own.entrySet()) {
        ours &= e.getValue().equals(r.labels().get(e.getKey()));
      }
      if (ours && (best == null || own.size() > best.labels().withoutMetricName().size())) {
        best = s;
      }
    }
    int n = (int) ((end - start) / step) + 1;
    List<Double> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(Double.NaN);
    }
    if (best == null) {
      return new Incident.Series(Map.of(), start, step, values);
    }
    for (int i = 0; i < best.size(); i++) {
      int idx = (int) ((best.timestampAt(i) - start) / step);
      if (idx >= 0 && idx < n) {
        values.set(idx, best.valueAt(i));
      }
    }
    return new Incident.Series(best.labels().withoutMetricName().toMap(), start, step, values);
  }

  /**
   * The times diagnosis is evaluated at: back from the view's end (always included) to its start at
   * a step in whole minutes, at most {@link #MAX_EVALUATIONS}.
   */
  static List<Long> evaluations(long start, long end) {
    long span = end - start;
    long step = Math.max(MIN_EVALUATION_STEP_MS, span / (MAX_EVALUATIONS - 1));
    step = (step + 59_999) / 60_000 * 60_000;
    List<Long> out = new ArrayList<>();
    for (long t = end; t >= start && out.size() < MAX_EVALUATIONS; t -= step) {
      out.add(0, t);
    }
    return out;
  }

  /** Extends the last entry when the cause named at {@code t} is the same, else adds one. */
  private static void add(
      List<Incident.Cause> timeline,
      long t,
      List<Finding> matching,
      String alertName,
      Map<String, String> labels) {
    String state = matching.isEmpty() ? "" : matching.get(0).state().id();
    String pod = matching.isEmpty() ? "" : matching.get(0).pod();
    if (!timeline.isEmpty()) {
      Incident.Cause last = timeline.get(timeline.size() - 1);
      if (last.state().equals(state) && last.pod().equals(pod)) {
        timeline.set(
            timeline.size() - 1,
            new Incident.Cause(last.fromMs(), t, state, pod, last.cause(), last.evidence()));
        return;
      }
    }
    if (matching.isEmpty()) {
      timeline.add(
          new Incident.Cause(t, t, "", "", AlertCauses.seesNothing(alertName, labels), List.of()));
    } else {
      Finding first = matching.get(0);
      timeline.add(
          new Incident.Cause(
              t, t, state, pod, AlertCauses.line(first, matching), first.evidence()));
    }
  }

  /** The pods of the alert's namespace and model that {@code d} examined. */
  private static Map<String, Incident.Pod> modelPods(Diagnosis d, Map<String, String> labels) {
    Map<String, Incident.Pod> out = new LinkedHashMap<>();
    for (String p : d.pods()) {
      Matcher m = POD.matcher(p);
      if (m.matches()
          && m.group(3).equals(labels.getOrDefault("model_name", m.group(3)))
          && m.group(1).equals(labels.getOrDefault("namespace", m.group(1)))) {
        out.put(
            m.group(1) + "/" + m.group(2),
            new Incident.Pod(m.group(1), m.group(2), m.group(3), List.of()));
      }
    }
    return out;
  }

  /** The alert's own pod, else the pods the causes name, else the model's pods. */
  private static List<Incident.Pod> involved(
      Map<String, String> labels,
      Map<String, Incident.Pod> named,
      Map<String, Incident.Pod> ofModel) {
    String pod = labels.getOrDefault("pod", "");
    if (!pod.isEmpty()) {
      String key = labels.getOrDefault("namespace", "") + "/" + pod;
      Incident.Pod p = named.get(key);
      return List.of(
          p != null
              ? p
              : new Incident.Pod(
                  labels.getOrDefault("namespace", ""),
                  pod,
                  labels.getOrDefault("model_name", ""),
                  List.of()));
    }
    return List.copyOf((named.isEmpty() ? ofModel : named).values());
  }

  private static Map<String, Incident.Pod> pods(Map<String, TreeMap<State, Finding>> named) {
    Map<String, Incident.Pod> out = new LinkedHashMap<>();
    named.forEach(
        (key, states) -> {
          Finding f = states.firstEntry().getValue();
          out.put(
              key,
              new Incident.Pod(
                  f.namespace(),
                  f.pod(),
                  f.model(),
                  states.keySet().stream().map(State::id).toList()));
        });
    return out;
  }

  private static Matrix matrix(QueryResult r) {
    return r.value() instanceof Matrix ? (Matrix) r.value() : new Matrix(List.of());
  }
}
