package dev.infermon.llm.catalog;

import java.util.List;

/**
 * Families one piece of the engine writes at the same moments (vLLM's Prometheus stat logger, which
 * registers every family at start-up; SGLang's scheduler, which writes its gauges at every log), so
 * that a page with one of them and without another lacks the other for a reason of its own (a cut
 * page, a name dropped by relabelling or a proxy), not because the writer is off or idle.
 *
 * @param name a short key ({@code stat_logger})
 * @param writer who writes them, as a reason names it ({@code vLLM's Prometheus stat logger})
 * @param when when it writes them ({@code from start-up}, {@code at every log})
 * @param metrics catalog names of the families, each known to the catalog
 */
public record WriterGroup(String name, String writer, String when, List<String> metrics) {
  public WriterGroup {
    if (name == null || name.isBlank() || writer == null || writer.isBlank() || when == null) {
      throw new IllegalArgumentException(
          "a writer group needs a name, a writer and when it writes: " + name);
    }
    if (metrics == null || metrics.size() < 2) {
      throw new IllegalArgumentException(
          "writer group " + name + " needs at least two metrics: " + metrics);
    }
    metrics = List.copyOf(metrics);
  }
}
