package dev.infermon.config.remote;

import dev.infermon.model.relabel.RelabelConfig;
import java.util.List;

/** The {@code alerting} section: relabeling applied to every alert, and the Alertmanagers. */
public record AlertingConfig(
    List<RelabelConfig> alertRelabelConfigs, List<AlertmanagerConfig> alertmanagers) {
  public static final AlertingConfig NONE = new AlertingConfig(List.of(), List.of());
}
