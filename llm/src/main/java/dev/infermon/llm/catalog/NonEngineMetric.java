package dev.infermon.llm.catalog;

import dev.infermon.model.metadata.MetricType;
import java.util.List;

/**
 * A metric of a router or scheduler in front of the engines (vLLM production-stack's router, the
 * Gateway API Inference Extension's and llm-d's endpoint picker): not an engine metric, so no
 * endpoint judges it; the catalog only knows that the name exists, since when and until when, and
 * what replaced it. Immutable.
 *
 * @param name the exposed family name (counters as on the wire, histograms without suffix)
 * @param component the router or scheduler that exposes it ({@code llm-d-router})
 * @param type its Prometheus type
 * @param since when it appeared, as the sources date it ({@code 2025-09-10 (#1567)}); may be empty
 * @param deprecated when it was deprecated while still emitted; empty when current
 * @param until when it stopped being emitted; empty while it is
 * @param replacedBy the name that replaced it; empty when none
 * @param note what a user of the name must know; may be empty
 * @param cite where the facts come from
 */
public record NonEngineMetric(
    String name,
    String component,
    MetricType type,
    String since,
    String deprecated,
    String until,
    String replacedBy,
    String note,
    String cite) {
  public NonEngineMetric {
    if (name == null || name.isEmpty() || component == null || type == null) {
      throw new IllegalArgumentException("a non-engine metric needs a name, component and type");
    }
    if (cite == null || cite.isBlank()) {
      throw new IllegalArgumentException(name + ": every entry cites its source");
    }
    since = nonNull(since);
    deprecated = nonNull(deprecated);
    until = nonNull(until);
    replacedBy = nonNull(replacedBy);
    note = nonNull(note);
  }

  /** Whether the name is no longer emitted by any release the sources know. */
  public boolean gone() {
    return !until.isEmpty();
  }

  /** The sample names of the family ({@code _bucket}, {@code _sum}, {@code _count} for one). */
  public List<String> sampleNames() {
    if (type == MetricType.HISTOGRAM) {
      return List.of(name + "_bucket", name + "_sum", name + "_count");
    }
    if (type == MetricType.SUMMARY) {
      return List.of(name, name + "_sum", name + "_count");
    }
    return List.of(name);
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }
}
