package dev.infermon.llm.report;

import dev.infermon.llm.capacity.CapacityJson;
import dev.infermon.llm.capacity.Headroom;
import dev.infermon.llm.diagnosis.DiagnosisJson;
import dev.infermon.llm.efficiency.EfficiencyJson;
import dev.infermon.llm.efficiency.Figures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A report as a JSON-ready tree (maps, lists, numbers, strings, null for an absent value): the
 * shape of {@code data} in {@code /api/v1/llm/report} and of {@code infermon report --format json}
 * (docs/http-api.md#report). Times are seconds since the epoch; headroom and efficiency figures are
 * written as {@code /api/v1/llm/capacity} and {@code /api/v1/llm/efficiency} write them, findings
 * as {@code /api/v1/llm/diagnosis} does. Stateless.
 */
public final class ReportJson {
  private ReportJson() {}

  public static Map<String, Object> tree(Report r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("start", r.startMs() / 1000.0);
    out.put("end", r.endMs() / 1000.0);
    out.put("periodSeconds", r.periodMs() / 1000);
    out.put("currency", r.currency());
    List<Object> models = new ArrayList<>();
    for (ModelReport m : r.models()) {
      models.add(model(m));
    }
    out.put("models", models);
    return out;
  }

  private static Map<String, Object> model(ModelReport m) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("model", m.model());
    Traffic t = m.traffic();
    Map<String, Object> traffic = new LinkedHashMap<>();
    traffic.put("requests", t.requests());
    traffic.put("promptTokens", t.promptTokens());
    traffic.put("generatedTokens", t.generatedTokens());
    traffic.put("meanRate", t.meanRate());
    traffic.put("peakRate", t.peakRate());
    traffic.put("peakStart", t.peakStartMs() / 1000.0);
    out.put("traffic", traffic);
    List<Object> slos = new ArrayList<>();
    for (SloAttainment s : m.slos()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("name", s.name());
      o.put("sli", s.sli());
      o.put("source", s.source());
      o.put("objective", s.objective());
      o.put("thresholdSeconds", Double.isNaN(s.thresholdSeconds()) ? null : s.thresholdSeconds());
      o.put("attainment", s.attainment().isPresent() ? s.attainment().getAsDouble() : null);
      o.put("met", s.attainment().isPresent() ? s.met() : null);
      o.put("reason", s.reason().isEmpty() ? null : s.reason());
      slos.add(o);
    }
    out.put("slos", slos);
    List<Object> worst = new ArrayList<>();
    for (WorstPeriod w : m.worst()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("start", w.startMs() / 1000.0);
      o.put("end", w.endMs() / 1000.0);
      o.put("quantile", w.quantile());
      o.put("ttftSeconds", w.ttftSeconds());
      o.put("rate", w.rate());
      o.put("findings", DiagnosisJson.findings(w.findings()));
      worst.add(o);
    }
    out.put("worstPeriods", worst);
    out.put("headroom", headroom(m.headroom()));
    out.put("efficiency", m.efficiency().map(ReportJson::figures).orElse(null));
    return out;
  }

  private static List<Object> headroom(List<Headroom> hs) {
    List<Object> out = new ArrayList<>();
    hs.forEach(h -> out.add(CapacityJson.headroom(h)));
    return out;
  }

  private static Object figures(Figures f) {
    return EfficiencyJson.figures(f);
  }
}
