package dev.infermon.llm.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dashboard's filters: namespace, workload, model, backend, role and LoRA adapter. Each is a
 * literal value or, for a Grafana export, a template variable; an empty value does not filter. The
 * adapter ({@value #ADAPTER}) is no stored label: vLLM lists adapters inside {@code
 * lora_requests_info}'s labels, so it scopes only the per-adapter LoRA panels, where the split
 * names them, and is left out of every selector. Immutable.
 *
 * @param values label name to value ({@code namespace}, {@code workload_name}, {@code model_name},
 *     {@code backend}, {@code role})
 * @param regex whether values are regexes ({@code =~}, Grafana variables) rather than literals
 */
public record Filters(Map<String, String> values, boolean regex) {
  /** The filter labels, in display order, with their Grafana variable names. */
  public static final Map<String, String> LABELS = labels();

  public static final Filters NONE = new Filters(Map.of(), false);

  /** The LoRA adapter filter's label, the one the per-adapter LoRA series carry. */
  public static final String ADAPTER = "lora_adapter";

  public Filters {
    for (String k : values.keySet()) {
      if (!LABELS.containsKey(k)) {
        throw new IllegalArgumentException(
            "unknown filter label: \"" + k + "\" (one of " + LABELS.keySet() + ")");
      }
    }
    values = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(values));
  }

  private static Map<String, String> labels() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("namespace", "namespace");
    m.put("workload_name", "workload");
    m.put("model_name", "model");
    m.put("backend", "backend");
    m.put("role", "role");
    m.put(ADAPTER, "adapter");
    return java.util.Collections.unmodifiableMap(m);
  }

  /** Literal filters; empty and null values are left out. */
  public static Filters of(Map<String, String> values) {
    Map<String, String> m = new LinkedHashMap<>();
    values.forEach(
        (k, v) -> {
          if (v != null && !v.isEmpty()) {
            m.put(k, v);
          }
        });
    return new Filters(m, false);
  }

  /** Filters that reference Grafana's template variables ({@code namespace=~"$namespace"}). */
  public static Filters grafanaVariables() {
    Map<String, String> m = new LinkedHashMap<>();
    LABELS.forEach((label, var) -> m.put(label, "$" + var));
    m.remove(ADAPTER); // no series carries it for Grafana to list: the export has no such variable
    return new Filters(m, true);
  }

  /** The adapter the LoRA panels are scoped to, empty for every adapter. */
  public String adapter() {
    return values.getOrDefault(ADAPTER, "");
  }

  /** These filters but {@code label}'s (for a family that lacks the label). */
  public Filters without(String label) {
    Map<String, String> m = new LinkedHashMap<>(values);
    m.remove(label);
    return new Filters(m, regex);
  }

  /** The matchers, in PromQL notation, with {@code extra} regex matchers of a panel. */
  public List<String> matchers(Map<String, String> extra) {
    List<String> out = new ArrayList<>();
    values.forEach(
        (k, v) -> {
          if (!k.equals(ADAPTER)) {
            out.add(k + (regex ? "=~" : "=") + quote(v));
          }
        });
    extra.forEach((k, v) -> out.add(k + (v.isEmpty() ? "=" : "=~") + quote(v)));
    return out;
  }

  static String quote(String v) {
    return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }
}
