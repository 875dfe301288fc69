package dev.infermon.llm.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An incident as a JSON-ready tree: the shape of {@code data} in {@code /api/v1/llm/incident}
 * (docs/http-api.md). Times are seconds since the epoch as the Prometheus API writes them, except
 * the symptom series, compact as the dashboard's: {@code start} and {@code step} in milliseconds
 * and {@code values} with null where there is no point. Stateless.
 */
public final class IncidentJson {
  private IncidentJson() {}

  public static Map<String, Object> tree(Incident i) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("alert", i.labels());
    out.put("expr", i.expr());
    out.put("state", i.resolved() ? "resolved" : "firing");
    out.put("firingStart", i.firingStartMs() / 1000.0);
    out.put("firingEnd", i.firingEndMs() / 1000.0);
    out.put("start", i.startMs() / 1000.0);
    out.put("end", i.endMs() / 1000.0);
    Map<String, Object> symptom = new LinkedHashMap<>();
    symptom.put("labels", i.symptom().labels());
    symptom.put("start", i.symptom().startMs());
    symptom.put("step", i.symptom().stepMs());
    List<Object> values = new ArrayList<>();
    for (double v : i.symptom().values()) {
      values.add(Double.isNaN(v) ? null : Double.isFinite(v) ? v : v > 0 ? "+Inf" : "-Inf");
    }
    symptom.put("values", values);
    out.put("symptom", symptom);
    List<Object> timeline = new ArrayList<>();
    for (Incident.Cause c : i.timeline()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("from", c.fromMs() / 1000.0);
      m.put("to", c.toMs() / 1000.0);
      m.put("state", c.state());
      m.put("pod", c.pod());
      m.put("cause", c.cause());
      m.put("evidence", c.evidence().stream().map(AlertCause::fact).toList());
      timeline.add(m);
    }
    out.put("timeline", timeline);
    out.put("evaluations", i.evaluations().stream().map(t -> t / 1000.0).toList());
    List<Object> pods = new ArrayList<>();
    for (Incident.Pod p : i.pods()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", p.namespace());
      m.put("pod", p.pod());
      m.put("model", p.model());
      m.put("states", p.states());
      pods.add(m);
    }
    out.put("pods", pods);
    out.put("note", i.note());
    return out;
  }
}
