package dev.infermon.config.scrape;

import dev.infermon.model.relabel.Action;
import dev.infermon.model.relabel.RelabelConfig;
import java.util.List;

/**
 * {@code global.scrape_sharding}: this process is replica {@code index} of {@code replicas} and
 * scrapes only the targets whose {@code source_labels} hash to its index, so N replicas each take a
 * stable 1/N of the targets. It becomes two target relabeling steps appended to every scrape config
 * (after the config's own, so the final {@code __address__} decides):
 *
 * <pre>
 * - source_labels: [__address__]   # source_labels
 *   modulus: N                     # replicas
 *   target_label: __tmp_infermon_shard
 *   action: hashmod
 * - source_labels: [__tmp_infermon_shard]
 *   regex: i                       # index
 *   action: keep
 * </pre>
 *
 * <p>Immutable. {@link #NONE} (one replica) adds no steps.
 */
public record ScrapeSharding(int replicas, int index, List<String> sourceLabels) {
  /** The label the hash is written to; {@code __tmp_} labels never reach storage. */
  public static final String SHARD_LABEL = "__tmp_infermon_shard";

  public static final List<String> DEFAULT_SOURCE_LABELS = List.of("__address__");

  /** No sharding: this process scrapes every target. */
  public static final ScrapeSharding NONE = new ScrapeSharding(1, 0, DEFAULT_SOURCE_LABELS);

  public ScrapeSharding {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be at least 1, got " + replicas);
    }
    if (index < 0 || index >= replicas) {
      throw new IllegalArgumentException(
          "index must be in [0, " + (replicas - 1) + "], got " + index);
    }
    if (sourceLabels.isEmpty()) {
      throw new IllegalArgumentException("source_labels must not be empty");
    }
    sourceLabels = List.copyOf(sourceLabels);
  }

  public boolean enabled() {
    return replicas > 1;
  }

  /** The relabeling steps that keep this replica's share; empty when not sharded. */
  public List<RelabelConfig> relabelRules() {
    if (!enabled()) {
      return List.of();
    }
    return List.of(
        RelabelConfig.builder()
            .sourceLabels(sourceLabels)
            .modulus(replicas)
            .targetLabel(SHARD_LABEL)
            .action(Action.HASHMOD)
            .build(),
        RelabelConfig.builder()
            .sourceLabels(List.of(SHARD_LABEL))
            .regex(Integer.toString(index))
            .action(Action.KEEP)
            .build());
  }
}
