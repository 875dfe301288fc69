package dev.infermon.lint.checks;

import dev.infermon.llm.catalog.NonEngineMetric;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.metadata.MetricType;
import java.util.List;
import java.util.Set;

/**
 * What the {@link Reference} knows about one sample name. Immutable.
 *
 * @param sample the sample name as queried
 * @param hit the catalog entry, or null when no engine's catalog has the name
 * @param exposed whether a target exposes it (catalog mode: the engine's newest release has it)
 * @param judgedByTargets whether {@code exposed} comes from targets rather than the catalog
 * @param type the type (from the page's TYPE line, else the catalog), UNKNOWN when neither says
 * @param labels the label names its series may carry (target labels included), or null when unknown
 *     (not exposed, or an info metric with open labels)
 * @param bounds a histogram's finite bucket bounds seen on the targets, increasing; empty when none
 *     were seen
 * @param targets the targets that expose it
 * @param router the router or scheduler family of that name, or null: not an engine metric, so
 *     known without being judged (an engine family of the same name wins: {@code hit} is set)
 * @param created whether the sample is the {@code _created} gauge of {@code hit}'s family
 * @param carried the label names its series carry for sure: their own and the target labels any
 *     scrape adds ({@link Reference#SCRAPE_LABELS}), or, stored, exactly those seen; null when
 *     unknown
 */
public record MetricInfo(
    String sample,
    Reference.CatalogHit hit,
    boolean exposed,
    boolean judgedByTargets,
    MetricType type,
    Set<String> labels,
    List<Double> bounds,
    List<TargetInventory> targets,
    NonEngineMetric router,
    boolean created,
    Set<String> carried) {
  /** Whether the metric is cumulative: a counter, or a histogram's or summary's series. */
  public boolean cumulative() {
    if (type == MetricType.COUNTER) {
      return true;
    }
    if (type == MetricType.HISTOGRAM || type == MetricType.SUMMARY) {
      return sample.endsWith("_bucket") || sample.endsWith("_sum") || sample.endsWith("_count");
    }
    return false;
  }

  /** Whether the metric is a gauge (an info metric included). */
  public boolean gauge() {
    return type == MetricType.GAUGE;
  }
}
