package dev.infermon.discovery;

import dev.infermon.model.labels.Labels;
import java.util.List;
import java.util.Objects;

/**
 * A set of targets with common labels, as Prometheus's {@code targetgroup.Group}: each target is a
 * label set carrying at least {@code __address__}; {@link #labels()} apply to every target that
 * does not set the label itself. A provider identifies each group by a {@link #source()} unique
 * within the provider; a later group with the same source replaces the earlier one, and a group
 * with no targets removes it.
 *
 * @param source the group's identity within its provider, e.g. {@code pod/ns/name}
 * @param targets the targets' own labels (usually {@code __address__} plus {@code __meta_*})
 * @param labels labels common to all targets
 */
public record TargetGroup(String source, List<Labels> targets, Labels labels) {
  public TargetGroup {
    if (source == null || source.isEmpty()) {
      throw new IllegalArgumentException("target group source must not be empty");
    }
    targets = List.copyOf(Objects.requireNonNull(targets, "targets"));
    Objects.requireNonNull(labels, "labels");
  }

  /** The group that removes the targets of {@code source}. */
  public static TargetGroup empty(String source) {
    return new TargetGroup(source, List.of(), Labels.EMPTY);
  }

  /** True when the group has no targets (it removes its source). */
  public boolean isEmpty() {
    return targets.isEmpty();
  }

  /**
   * The labels of target {@code i}: its own labels, plus the group's labels it does not set (what
   * Prometheus's {@code TargetsFromGroup} builds before relabeling).
   */
  public Labels merged(int i) {
    Labels own = targets.get(i);
    if (labels.isEmpty()) {
      return own;
    }
    Labels.Builder b = own.toBuilder();
    for (int k = 0; k < labels.size(); k++) {
      if (!own.has(labels.name(k))) {
        b.set(labels.name(k), labels.value(k));
      }
    }
    return b.build();
  }
}
