package dev.infermon.llm.dashboard;

import java.util.List;

/**
 * The LLM-inference dashboard: the model across pods, each pod, each pod's GPUs, the causal chain
 * (KV usage → preemptions → waiting → TTFT, with the GPUs on the same time axis) per model and per
 * pod, and prefill/decode deployments by role, declared as data in {@code panels.yaml} beside the
 * catalog and read once on first use (invalid built-in data is a {@link LayoutException}, thrown as
 * this class's initialization error; the layout tests catch it at build time). docs/dashboard.md
 * describes every panel. Immutable.
 */
public final class Dashboards {
  private static final DashboardLayout LAYOUT = PanelsLoader.loadResource();

  private Dashboards() {}

  /** The built-in layout: levels, sections and panels. */
  public static DashboardLayout layout() {
    return LAYOUT;
  }

  /** Every panel, in display order. */
  public static List<Panel> standard() {
    return LAYOUT.panels();
  }

  /**
   * The panel with {@code id}.
   *
   * @throws IllegalArgumentException naming the id when there is none
   */
  public static Panel panel(String id) {
    return LAYOUT.panel(id);
  }
}
