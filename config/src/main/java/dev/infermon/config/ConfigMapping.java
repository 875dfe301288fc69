package dev.infermon.config;

import static dev.infermon.config.ConfigSchema.ALERTING;
import static dev.infermon.config.ConfigSchema.GLOBAL;
import static dev.infermon.config.ConfigSchema.INFERENCE;
import static dev.infermon.config.ConfigSchema.LLM;
import static dev.infermon.config.ConfigSchema.ROOT;
import static dev.infermon.config.ConfigSchema.STORAGE;
import static dev.infermon.config.ConfigSchema.TRACING;
import static dev.infermon.config.ConfigSchema.UI;
import static dev.infermon.config.ConfigSchema.WEB;

import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.remote.AlertingConfig;
import dev.infermon.config.remote.TracingConfig;
import dev.infermon.config.scrape.GlobalConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.scrape.ScrapeSharding;
import dev.infermon.config.value.ByteSize;
import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Reader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Maps the root of the node tree, in the order Prometheus validates it. */
final class ConfigMapping {
  private ConfigMapping() {}

  static Config map(Node root, Reader r) {
    MapView v = r.view(root, root.pos(), "", ROOT);
    GlobalConfig g = global(v.map("global", GLOBAL));
    List<String> ruleFiles = globs(v, "rule_files", Checks.RULE_PATH, "invalid rule file path ");
    List<String> scrapeConfigFiles =
        globs(v, "scrape_config_files", Checks.RULE_PATH, "invalid scrape config file path ");
    if (!scrapeConfigFiles.isEmpty()) {
      v.warn("scrape_config_files", "scrape_config_files are not loaded by infermon yet");
    }
    Set<String> jobs = new HashSet<>();
    List<ScrapeConfig> scrapes =
        v.list(
            "scrape_configs",
            (node, path) -> {
              ScrapeConfig sc = ScrapeMapping.scrape(r, node, path, g);
              if (sc != null && !sc.jobName().isEmpty() && !jobs.add(sc.jobName())) {
                Node.Entry job = ((Node.MapNode) node).entries().get("job_name");
                r.error(
                    job.value().pos(),
                    path + ".job_name",
                    "found multiple scrape configs with job name " + Checks.quote(sc.jobName()));
              }
              return sc;
            });
    AlertingConfig alerting =
        v.has("alerting")
            ? RemoteMapping.alerting(v.map("alerting", ALERTING))
            : AlertingConfig.NONE;
    var remoteWrite = RemoteMapping.remoteWrites(v);
    var remoteRead = RemoteMapping.remoteReads(v);
    if (!remoteRead.isEmpty()) {
      v.warn(
          "remote_read",
          "remote_read is not used by infermon; configure storage.remote to query a remote cluster");
    }
    StorageConfig storage = AppMapping.storage(v.map("storage", STORAGE));
    Optional<TracingConfig> tracing =
        v.has("tracing")
            ? Optional.of(RemoteMapping.tracing(v.map("tracing", TRACING)))
            : Optional.empty();
    for (String ignored : List.of("otlp", "runtime")) {
      if (v.has(ignored)) {
        v.warn(
            ignored,
            "the "
                + ignored
                + " section is accepted for compatibility with Prometheus and ignored by infermon");
      }
    }
    if (storage.mode() == StorageConfig.Mode.AGENT) {
      if (alerting.hasReceivers() || !alerting.alertRelabelConfigs().isEmpty()) {
        v.error("alerting", "field alerting is not allowed in agent mode");
      }
      if (!ruleFiles.isEmpty()) {
        v.error("rule_files", "field rule_files is not allowed in agent mode");
      }
      if (!remoteRead.isEmpty()) {
        v.error("remote_read", "field remote_read is not allowed in agent mode");
      }
    }
    Config c =
        new Config(
            g,
            ruleFiles,
            scrapeConfigFiles,
            scrapes,
            alerting,
            remoteWrite,
            remoteRead,
            storage,
            tracing,
            AppMapping.inference(v.map("inference", INFERENCE), g),
            AppMapping.llm(v.map("llm", LLM)),
            AppMapping.ui(v.map("ui", UI)),
            AppMapping.web(v.map("web", WEB)));
    v.finish();
    return c;
  }

  private static List<String> globs(MapView v, String key, Pattern valid, String message) {
    List<String> out = new ArrayList<>();
    for (String f : v.strings(key, List.of())) {
      if (!valid.matcher(f).matches()) {
        v.error(key, message + Checks.quote(f));
      }
      out.add(v.reader().file(f));
    }
    return List.copyOf(out);
  }

  static ScrapeSharding scrapeSharding(MapView v) {
    int replicas = v.intCount("replicas", 1);
    int index = v.intCount("index", 0);
    List<String> sources = v.strings("source_labels", ScrapeSharding.DEFAULT_SOURCE_LABELS);
    v.finish();
    try {
      return new ScrapeSharding(replicas, index, sources);
    } catch (IllegalArgumentException e) {
      v.error(e.getMessage());
      return ScrapeSharding.NONE;
    }
  }

  static GlobalConfig global(MapView v) {
    GlobalConfig d = GlobalConfig.DEFAULT;
    Duration interval =
        ScrapeMapping.positiveOr(v.duration("scrape_interval", null), d.scrapeInterval());
    Duration timeout = v.duration("scrape_timeout", null);
    if (timeout != null && timeout.compareTo(interval) > 0) {
      v.error("scrape_timeout", "global scrape timeout greater than scrape interval");
    }
    if (timeout == null || timeout.isZero()) {
      timeout = ScrapeMapping.min(d.scrapeTimeout(), interval);
    }
    List<String> protocols =
        v.has("scrape_protocols")
            ? ScrapeMapping.protocols(v, "scrape_protocols", " for global config")
            : d.scrapeProtocols();
    String validation = v.string("metric_name_validation_scheme", "");
    if (validation.isEmpty()) {
      validation = d.metricNameValidationScheme();
    } else if (!validation.equals("utf8") && !validation.equals("legacy")) {
      v.error(
          "metric_name_validation_scheme",
          "must be utf8 or legacy, got " + Checks.quote(validation));
    }
    String escaping = v.string("metric_name_escaping_scheme", "");
    if (escaping.isEmpty()) {
      escaping = validation.equals("legacy") ? "underscores" : "allow-utf-8";
    } else if (!List.of("allow-utf-8", "underscores", "dots", "values").contains(escaping)) {
      v.error(
          "metric_name_escaping_scheme",
          "unknown global name escaping method specified, must be one of 'allow-utf-8',"
              + " 'underscores', 'dots', or 'values', got "
              + Checks.quote(escaping));
    }
    GlobalConfig g =
        new GlobalConfig(
            interval,
            timeout,
            protocols,
            ScrapeMapping.positiveOr(
                v.duration("evaluation_interval", null), d.evaluationInterval()),
            v.duration("rule_query_offset", d.ruleQueryOffset()),
            v.file("query_log_file"),
            v.file("scrape_failure_log_file"),
            ScrapeMapping.labels(v, "external_labels"),
            v.bytes("body_size_limit", ByteSize.ZERO),
            v.count("sample_limit", 0),
            v.count("target_limit", 0),
            v.count("label_limit", 0),
            v.count("label_name_length_limit", 0),
            v.count("label_value_length_limit", 0),
            v.count("keep_dropped_targets", 0),
            validation,
            escaping,
            v.bool("scrape_native_histograms", false),
            v.bool("convert_classic_histograms_to_nhcb", false),
            v.bool("always_scrape_classic_histograms", false),
            v.bool("extra_scrape_metrics", false),
            v.has("scrape_sharding")
                ? scrapeSharding(v.map("scrape_sharding", ConfigSchema.SCRAPE_SHARDING))
                : ScrapeSharding.NONE);
    v.finish();
    return g;
  }
}
