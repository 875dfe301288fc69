package dev.infermon.llm.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A diagnosis as a JSON-ready tree: the shape of {@code infermon diagnose -o json} and of {@code
 * data} in {@code /api/v1/llm/diagnosis} (docs/http-api.md). Times are seconds since the epoch, as
 * the Prometheus API writes them. Stateless.
 */
public final class DiagnosisJson {
  private DiagnosisJson() {}

  public static Map<String, Object> tree(Diagnosis d) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("start", d.startMs() / 1000.0);
    out.put("end", d.endMs() / 1000.0);
    out.put("pods", d.pods());
    out.put("findings", findings(d.findings()));
    List<Object> unread = new ArrayList<>();
    for (NotMeasured n : d.notMeasured()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("model", n.model());
      m.put("namespace", n.namespace());
      m.put("pod", n.pod());
      m.put("signals", n.signals());
      unread.add(m);
    }
    out.put("notMeasured", unread);
    out.put("unexamined", d.unexamined());
    return out;
  }

  /** Findings as {@link #tree} writes them (the report's worst periods write them alike). */
  public static List<Object> findings(List<Finding> fs) {
    List<Object> findings = new ArrayList<>();
    for (Finding f : fs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("state", f.state().id());
      m.put("description", f.state().description());
      m.put("model", f.model());
      m.put("namespace", f.namespace());
      m.put("pod", f.pod());
      m.put("summary", f.summary());
      List<Object> ev = new ArrayList<>();
      for (Evidence e : f.evidence()) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("signal", e.signal());
        x.put("series", e.series());
        x.put("value", Double.isFinite(e.value()) ? e.value() : String.valueOf(e.value()));
        x.put("time", e.timeMs() / 1000.0);
        x.put("note", e.note());
        x.put("query", e.query());
        ev.add(x);
      }
      m.put("evidence", ev);
      m.put("symptoms", f.symptoms().stream().map(Symptom::id).toList());
      m.put("notRead", f.notRead());
      findings.add(m);
    }
    return findings;
  }
}
