package dev.infermon.llm.efficiency;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Efficiency as a JSON-ready tree: the shape of {@code data} in {@code /api/v1/llm/efficiency}
 * (docs/http-api.md#efficiency). Times are seconds since the epoch, as the Prometheus API writes
 * them; a figure is a number or {@code null} beside its reason. Stateless.
 */
public final class EfficiencyJson {
  private EfficiencyJson() {}

  public static Map<String, Object> tree(Efficiency e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("start", e.startMs() / 1000.0);
    out.put("end", e.endMs() / 1000.0);
    out.put("step", e.stepMs() / 1000.0);
    out.put("currency", e.currency());
    out.put("models", groups(e.models()));
    out.put("workloads", groups(e.workloads()));
    out.put("pods", groups(e.pods()));
    return out;
  }

  private static List<Object> groups(List<Group> groups) {
    List<Object> out = new ArrayList<>();
    for (Group g : groups) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("labels", g.labels());
      m.put("pods", g.pods());
      m.put("figures", figures(g.figures()));
      m.put("gpuSecondsByGpuModel", g.figures().gpuSecondsByGpuModel());
      out.add(m);
    }
    return out;
  }

  /** One group's figures, each a value or {@code null} beside its reason. */
  public static Map<String, Object> figures(Figures f) {
    Map<String, Object> figures = new LinkedHashMap<>();
    figure(figures, "generatedTokens", f.generatedTokens());
    figure(figures, "gpuSeconds", f.gpuSeconds());
    figure(figures, "idleGpuSeconds", f.idleGpuSeconds());
    figure(figures, "asleepGpuSeconds", f.asleepGpuSeconds());
    figure(figures, "energyJoules", f.energyJoules());
    figure(figures, "tokensPerGpuSecond", f.tokensPerGpuSecond());
    figure(figures, "tokensPerJoule", f.tokensPerJoule());
    figure(figures, "joulesPerToken", f.joulesPerToken());
    figure(figures, "cost", f.cost());
    figure(figures, "costPerMillionTokens", f.costPerMillionTokens());
    return figures;
  }

  private static void figure(Map<String, Object> out, String name, Figure f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("value", f.present() ? f.get() : null);
    if (!f.present()) {
      m.put("reason", f.reason());
    }
    out.put(name, m);
  }
}
