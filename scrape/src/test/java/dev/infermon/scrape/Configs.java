package dev.infermon.scrape;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.scrape.ScrapeConfig;
import java.util.List;

/** Scrape configs for tests, written as prometheus.yml snippets and loaded by the real loader. */
final class Configs {
  private Configs() {}

  /** The scrape configs of {@code scrapeConfigsYaml} (the body of {@code scrape_configs:}). */
  static List<ScrapeConfig> load(String scrapeConfigsYaml) {
    String yaml = "scrape_configs:\n" + scrapeConfigsYaml.stripIndent();
    try {
      return ConfigLoader.create().parse(yaml, "test.yml").scrapeConfigs();
    } catch (ConfigException e) {
      throw new IllegalArgumentException(e.getMessage() + "\n" + yaml, e);
    }
  }

  /** The one scrape config of a snippet. */
  static ScrapeConfig one(String yaml) {
    List<ScrapeConfig> l = load(yaml);
    if (l.size() != 1) {
      throw new IllegalArgumentException("expected one scrape config, got " + l.size());
    }
    return l.get(0);
  }
}
