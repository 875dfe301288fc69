package dev.infermon.config.scrape;

import dev.infermon.model.labels.Labels;
import java.util.List;

/** A fixed target group ({@code static_configs}): {@code host:port} targets and their labels. */
public record StaticConfig(List<String> targets, Labels labels) {}
