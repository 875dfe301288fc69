package dev.infermon.config.yaml;

/**
 * One thing wrong with a configuration: where, at which key path, and what. Prints as {@code
 * infermon.yml:14:7: scrape_configs[2].job_name: job_name is empty}.
 */
public record Problem(Pos pos, String path, String message) {
  @Override
  public String toString() {
    return pos + ": " + (path.isEmpty() ? "" : path + ": ") + message;
  }
}
