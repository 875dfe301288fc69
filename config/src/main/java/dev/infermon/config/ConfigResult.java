package dev.infermon.config;

import dev.infermon.config.yaml.Problem;
import java.util.List;

/**
 * A loaded configuration and the non-fatal findings about it: settings accepted for compatibility
 * with Prometheus that infermon ignores (unsupported discovery mechanisms, proxies, tracing, ...).
 * Log the warnings; the configuration is usable.
 */
public record ConfigResult(Config config, List<Problem> warnings) {
  public ConfigResult {
    warnings = List.copyOf(warnings);
  }
}
