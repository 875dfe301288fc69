package dev.infermon.config;

import dev.infermon.config.app.InferenceConfig;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.app.UiConfig;
import dev.infermon.config.app.WebConfig;
import dev.infermon.config.remote.AlertingConfig;
import dev.infermon.config.remote.RemoteReadConfig;
import dev.infermon.config.remote.RemoteWriteConfig;
import dev.infermon.config.remote.TracingConfig;
import dev.infermon.config.scrape.GlobalConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.yaml.YamlPrinter;
import java.util.List;
import java.util.Optional;

/**
 * The whole configuration: Prometheus's sections ({@code global}, {@code rule_files}, {@code
 * scrape_configs}, {@code alerting}, {@code remote_write}, {@code remote_read}, {@code storage},
 * {@code tracing}) and infermon's ({@code inference}, {@code llm}, {@code ui}, {@code web}; {@code
 * storage} is shared and extended). Immutable and thread-safe; every default is resolved, so
 * consumers never look at {@code global} to fill in a scrape config. Built by {@link ConfigLoader}.
 */
public record Config(
    GlobalConfig global,
    List<String> ruleFiles,
    List<String> scrapeConfigFiles,
    List<ScrapeConfig> scrapeConfigs,
    AlertingConfig alerting,
    List<RemoteWriteConfig> remoteWrite,
    List<RemoteReadConfig> remoteRead,
    StorageConfig storage,
    Optional<TracingConfig> tracing,
    InferenceConfig inference,
    LlmConfig llm,
    UiConfig ui,
    WebConfig web) {

  /**
   * The configuration as YAML with every secret (passwords, tokens, credentials, password hashes,
   * private keys) printed as {@code <secret>} and URL passwords as {@code xxxxx}: what {@code
   * /api/v1/status/config} shows. Defaults appear resolved, as Prometheus prints them.
   */
  public String toRedactedYaml() {
    return YamlPrinter.print(this, true);
  }
}
