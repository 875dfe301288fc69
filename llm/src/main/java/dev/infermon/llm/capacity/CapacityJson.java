package dev.infermon.llm.capacity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A capacity report as a JSON-ready tree (maps, lists, numbers, strings, null for an absent value):
 * the shape of {@code /api/v1/llm/capacity} (docs/http-api.md). Stateless.
 */
public final class CapacityJson {
  private CapacityJson() {}

  public static Map<String, Object> tree(CapacityReport r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("end", r.endMs() / 1000.0);
    m.put("lookbackSeconds", r.lookbackMs() / 1000);
    m.put("stepSeconds", r.stepMs() / 1000);
    m.put("models", list(r.models()));
    m.put("pods", list(r.pods()));
    return m;
  }

  private static List<Object> list(List<Headroom> hs) {
    List<Object> out = new ArrayList<>();
    for (Headroom h : hs) {
      out.add(headroom(h));
    }
    return out;
  }

  /** One estimate, as {@link #tree} writes each (the report's headroom too). */
  public static Map<String, Object> headroom(Headroom h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("model", h.model());
    m.put("namespace", h.namespace());
    if (!h.pod().isEmpty()) {
      m.put("pod", h.pod());
    }
    m.put("estimated", h.estimated());
    m.put("reason", h.reason().isEmpty() ? null : h.reason());
    m.put("currentRate", value(h.currentRate()));
    m.put("ceilingRate", value(h.ceilingRate()));
    m.put(
        "ceilingInterval", java.util.Arrays.asList(value(h.ceilingLow()), value(h.ceilingHigh())));
    m.put("headroom", value(h.headroom()));
    m.put("ceilingKvUsage", value(h.ceilingUsage()));
    m.put("maxObservedKvUsage", value(h.maxObservedUsage()));
    m.put("trendPerHour", value(h.trendPerHour()));
    m.put("secondsToCeiling", value(h.secondsToCeiling()));
    m.put("timeReason", h.timeReason().isEmpty() ? null : h.timeReason());
    m.put("points", h.points());
    m.put("limits", h.limits());
    return m;
  }

  private static Object value(OptionalDouble v) {
    return v.isPresent() ? (Object) v.getAsDouble() : null;
  }
}
