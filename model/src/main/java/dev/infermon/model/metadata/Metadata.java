package dev.infermon.model.metadata;

import java.util.Objects;

/**
 * What a target says about a metric family: its type, help text and unit (empty when absent).
 *
 * @param type the family's type; {@link MetricType#UNKNOWN} when no TYPE line was given
 * @param help the HELP text, unescaped; empty when absent
 * @param unit the UNIT (OpenMetrics only); empty when absent
 */
public record Metadata(MetricType type, String help, String unit) {
  /** Metadata of a family that declared nothing. */
  public static final Metadata UNKNOWN = new Metadata(MetricType.UNKNOWN, "", "");

  public Metadata {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(help, "help");
    Objects.requireNonNull(unit, "unit");
  }
}
