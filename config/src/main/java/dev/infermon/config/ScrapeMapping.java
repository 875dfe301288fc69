package dev.infermon.config;

import static dev.infermon.config.ConfigSchema.FILE_SD;
import static dev.infermon.config.ConfigSchema.K8S_ATTACH;
import static dev.infermon.config.ConfigSchema.K8S_NAMESPACES;
import static dev.infermon.config.ConfigSchema.K8S_SD;
import static dev.infermon.config.ConfigSchema.K8S_SELECTOR;
import static dev.infermon.config.ConfigSchema.OTHER_SD;
import static dev.infermon.config.ConfigSchema.SCRAPE;
import static dev.infermon.config.ConfigSchema.STATIC;

import dev.infermon.config.scrape.FileSdConfig;
import dev.infermon.config.scrape.GlobalConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.KubernetesRole;
import dev.infermon.config.scrape.KubernetesSdConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.scrape.StaticConfig;
import dev.infermon.config.value.ByteSize;
import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Reader;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads scrape configs and their discovery configs, resolving defaults from {@code global}. */
final class ScrapeMapping {
  private static final List<String> PROTO_FIRST = ScrapeConfig.NATIVE_HISTOGRAM_PROTOCOLS;
  private static final List<String> ESCAPING_SCHEMES =
      List.of("allow-utf-8", "underscores", "dots", "values");

  private ScrapeMapping() {}

  static ScrapeConfig scrape(Reader r, Node node, String path, GlobalConfig g) {
    if (node instanceof Node.ScalarNode
        && ((Node.ScalarNode) node).type() == Node.ScalarType.NULL) {
      r.error(node.pos(), path, "empty or null scrape config section");
      return null;
    }
    MapView v = r.view(node, node.pos(), path, SCRAPE);
    String job = v.string("job_name", "");
    if (job.isEmpty()) {
      v.error("job_name is empty");
    }
    Duration interval = positiveOr(v.duration("scrape_interval", null), g.scrapeInterval());
    Duration timeout = v.duration("scrape_timeout", null);
    if (timeout != null && timeout.compareTo(interval) > 0) {
      v.error(
          "scrape_timeout",
          "scrape timeout greater than scrape interval for scrape config with job name "
              + Checks.quote(job));
    }
    if (timeout == null || timeout.isZero()) {
      timeout = min(g.scrapeTimeout(), interval);
    }
    boolean nativeHistograms = v.bool("scrape_native_histograms", g.scrapeNativeHistograms());
    List<String> protocols =
        v.has("scrape_protocols")
            ? protocols(
                v, "scrape_protocols", " for scrape config with job name " + Checks.quote(job))
            : (nativeHistograms && g.scrapeProtocols() == GlobalConfig.DEFAULT_SCRAPE_PROTOCOLS
                ? PROTO_FIRST
                : g.scrapeProtocols());
    String fallback = v.string("fallback_scrape_protocol", "");
    if (!fallback.isEmpty() && !GlobalConfig.SCRAPE_PROTOCOLS.contains(fallback)) {
      v.error(
          "fallback_scrape_protocol",
          "invalid fallback_scrape_protocol for scrape config with job name "
              + Checks.quote(job)
              + ": unknown scrape protocol "
              + fallback
              + ", supported: "
              + GlobalConfig.SCRAPE_PROTOCOLS);
    }
    String scheme = v.string("scheme", ScrapeConfig.DEFAULT_SCHEME);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      v.error("scheme", "scheme must be http or https, got " + Checks.quote(scheme));
    }
    String metricsPath = v.string("metrics_path", ScrapeConfig.DEFAULT_METRICS_PATH);
    String validation = v.string("metric_name_validation_scheme", "");
    boolean localValidationUnset = validation.isEmpty();
    if (localValidationUnset) {
      validation = g.metricNameValidationScheme();
    } else if (!validation.equals("utf8") && !validation.equals("legacy")) {
      v.error(
          "metric_name_validation_scheme",
          "unknown scrape config name validation method specified, must be either '', 'legacy'"
              + " or 'utf8', got "
              + validation);
    }
    String escaping = v.string("metric_name_escaping_scheme", "");
    if (escaping.isEmpty()) {
      escaping =
          localValidationUnset
              ? g.metricNameEscapingScheme()
              : validation.equals("legacy") ? "underscores" : "allow-utf-8";
    } else if (!ESCAPING_SCHEMES.contains(escaping)) {
      v.error(
          "metric_name_escaping_scheme",
          "unknown scrape config name escaping method specified, must be one of 'allow-utf-8',"
              + " 'underscores', 'dots', or 'values', got "
              + Checks.quote(escaping));
    } else if (escaping.equals("allow-utf-8") && !validation.equals("utf8")) {
      v.error(
          "metric_name_escaping_scheme",
          "utf8 metric names requested but validation scheme is not set to UTF8");
    }
    HttpClientConfig http = HttpMapping.read(v, HttpClientConfig.DEFAULT);
    List<RelabelConfig> relabel =
        RelabelMapping.list(
            v, "relabel_configs", "empty or null target relabeling rule in scrape config");
    boolean noOwnRelabeling = relabel.isEmpty();
    if (g.scrapeSharding().enabled()) {
      // After the job's own rules, so the final address decides which replica scrapes a target.
      relabel = new java.util.ArrayList<>(relabel);
      relabel.addAll(g.scrapeSharding().relabelRules());
      relabel = List.copyOf(relabel);
    }
    List<RelabelConfig> metricRelabel =
        RelabelMapping.list(
            v, "metric_relabel_configs", "empty or null metric relabeling rule in scrape config");
    List<StaticConfig> statics = staticConfigs(v, noOwnRelabeling);
    ScrapeConfig result =
        new ScrapeConfig(
            job,
            v.bool("honor_labels", false),
            v.bool("honor_timestamps", true),
            v.bool("track_timestamps_staleness", false),
            params(v),
            interval,
            timeout,
            protocols,
            fallback,
            nativeHistograms,
            v.bool("always_scrape_classic_histograms", g.alwaysScrapeClassicHistograms()),
            v.bool("convert_classic_histograms_to_nhcb", g.convertClassicHistogramsToNhcb()),
            v.has("scrape_failure_log_file")
                ? v.file("scrape_failure_log_file")
                : g.scrapeFailureLogFile(),
            metricsPath,
            scheme,
            v.bool("enable_compression", true),
            nonZeroOr(v.bytes("body_size_limit", ByteSize.ZERO), g.bodySizeLimit()),
            nonZeroOr(v.count("sample_limit", 0), g.sampleLimit()),
            nonZeroOr(v.count("target_limit", 0), g.targetLimit()),
            nonZeroOr(v.count("label_limit", 0), g.labelLimit()),
            nonZeroOr(v.count("label_name_length_limit", 0), g.labelNameLengthLimit()),
            nonZeroOr(v.count("label_value_length_limit", 0), g.labelValueLengthLimit()),
            v.count("native_histogram_bucket_limit", 0),
            v.number("native_histogram_min_bucket_factor", 0),
            nonZeroOr(v.count("keep_dropped_targets", 0), g.keepDroppedTargets()),
            validation,
            escaping,
            v.bool("extra_scrape_metrics", g.extraScrapeMetrics()),
            http,
            relabel,
            metricRelabel,
            statics,
            fileSdConfigs(v),
            kubernetesSdConfigs(v),
            unsupportedSd(v));
    v.finish();
    return result;
  }

  /** Validates a {@code scrape_protocols} list as Prometheus's validateAcceptScrapeProtocols. */
  static List<String> protocols(MapView v, String key, String context) {
    List<String> ps = v.strings(key, List.of());
    if (ps.isEmpty()) {
      v.error(key, "scrape_protocols cannot be empty" + context);
      return GlobalConfig.DEFAULT_SCRAPE_PROTOCOLS;
    }
    Set<String> seen = new HashSet<>();
    for (String p : ps) {
      if (!seen.add(p.toLowerCase(java.util.Locale.ROOT))) {
        v.error(key, "duplicated protocol in scrape_protocols, got " + ps + context);
        return GlobalConfig.DEFAULT_SCRAPE_PROTOCOLS;
      }
      if (!GlobalConfig.SCRAPE_PROTOCOLS.contains(p)) {
        v.error(
            key,
            "scrape_protocols: unknown scrape protocol "
                + p
                + ", supported: "
                + GlobalConfig.SCRAPE_PROTOCOLS
                + context);
        return GlobalConfig.DEFAULT_SCRAPE_PROTOCOLS;
      }
    }
    return ps;
  }

  private static Map<String, List<String>> params(MapView v) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (Map.Entry<String, Node.Entry> e : v.entries("params").entrySet()) {
      Node value = e.getValue().value();
      List<String> values = new ArrayList<>();
      if (value instanceof Node.ListNode) {
        for (Node item : ((Node.ListNode) value).items()) {
          if (item instanceof Node.ScalarNode) {
            values.add(((Node.ScalarNode) item).text());
          }
        }
        out.put(e.getKey(), List.copyOf(values));
      } else {
        v.reader()
            .error(
                value.pos(),
                v.path("params") + "." + e.getKey(),
                "expected a list of strings, got " + value.describe());
      }
    }
    return Collections.unmodifiableMap(out);
  }

  static List<StaticConfig> staticConfigs(MapView v, boolean checkTargets) {
    Reader r = v.reader();
    return v.list(
        "static_configs",
        (node, path) -> {
          MapView s = r.view(node, node.pos(), path, STATIC);
          List<String> targets = s.strings("targets", List.of());
          if (checkTargets) {
            for (String t : targets) {
              if (t.contains("/")) {
                s.error("targets", Checks.quote(t) + " is not a valid hostname");
              }
            }
          }
          Labels labels = labels(s, "labels");
          s.finish();
          return new StaticConfig(targets, labels);
        });
  }

  /** A label map with legacy name checks, as target groups and external labels are checked. */
  static Labels labels(MapView v, String key) {
    Labels.Builder b = Labels.builder();
    for (Map.Entry<String, String> e : v.stringMap(key).entrySet()) {
      if (!Checks.isLabelName(e.getKey())) {
        v.error(key, Checks.quote(e.getKey()) + " is not a valid label name");
      } else {
        b.set(e.getKey(), e.getValue());
      }
    }
    return b.build();
  }

  static List<FileSdConfig> fileSdConfigs(MapView v) {
    Reader r = v.reader();
    return v.list(
        "file_sd_configs",
        (node, path) -> {
          MapView f = r.view(node, node.pos(), path, FILE_SD);
          List<String> files = new ArrayList<>();
          for (String name : f.strings("files", List.of())) {
            if (!Checks.FILE_SD_NAME.matcher(name).matches()) {
              f.error(
                  "files", "path name " + Checks.quote(name) + " is not valid for file discovery");
            }
            files.add(r.file(name));
          }
          Duration refresh = f.duration("refresh_interval", FileSdConfig.DEFAULT_REFRESH_INTERVAL);
          f.finish();
          return new FileSdConfig(List.copyOf(files), refresh);
        });
  }

  static List<KubernetesSdConfig> kubernetesSdConfigs(MapView v) {
    Reader r = v.reader();
    return v.list(
        "kubernetes_sd_configs",
        (node, path) -> kubernetes(r.view(node, node.pos(), path, K8S_SD)));
  }

  private static KubernetesSdConfig kubernetes(MapView k) {
    String roleName = k.string("role", "");
    KubernetesRole role = KubernetesRole.fromYamlName(roleName);
    if (roleName.isEmpty()) {
      k.error("role missing (one of: pod, service, endpoints, endpointslice, node, ingress)");
    } else if (role == null) {
      k.error("role", "unknown Kubernetes SD role " + Checks.quote(roleName));
    }
    String apiServer = "";
    if (k.has("api_server")) {
      dev.infermon.config.value.Url u = Checks.url(k, "api_server");
      apiServer = u == null ? "" : u.uri().toString();
    }
    String kubeconfig = k.file("kubeconfig_file");
    MapView ns = k.map("namespaces", K8S_NAMESPACES);
    KubernetesSdConfig.Namespaces namespaces =
        new KubernetesSdConfig.Namespaces(
            ns.bool("own_namespace", false), ns.strings("names", List.of()));
    ns.finish();
    HttpClientConfig http = HttpMapping.read(k, HttpClientConfig.DEFAULT);
    boolean hasApi = k.has("api_server");
    if (hasApi && !kubeconfig.isEmpty()) {
      k.error("kubeconfig_file", "cannot use 'kubeconfig_file' and 'api_server' simultaneously");
    } else if (!kubeconfig.isEmpty() && !http.equals(HttpClientConfig.DEFAULT)) {
      k.error("cannot use a custom HTTP client configuration together with 'kubeconfig_file'");
    } else if (!hasApi && !http.equals(HttpClientConfig.DEFAULT)) {
      k.error(
          "to use custom HTTP client configuration please provide the 'api_server' URL explicitly");
    } else if (hasApi && namespaces.ownNamespace()) {
      k.error(
          "namespaces", "cannot use 'api_server' and 'namespaces.own_namespace' simultaneously");
    } else if (!kubeconfig.isEmpty() && namespaces.ownNamespace()) {
      k.error(
          "namespaces",
          "cannot use 'kubeconfig_file' and 'namespaces.own_namespace' simultaneously");
    }
    List<KubernetesSdConfig.Selector> selectors = selectors(k, role);
    MapView attach = k.map("attach_metadata", K8S_ATTACH);
    KubernetesSdConfig.AttachMetadata meta =
        new KubernetesSdConfig.AttachMetadata(
            attach.bool("node", false), attach.bool("namespace", false));
    attach.finish();
    k.finish();
    return role == null
        ? null
        : new KubernetesSdConfig(apiServer, role, kubeconfig, namespaces, selectors, meta, http);
  }

  private static List<KubernetesSdConfig.Selector> selectors(MapView k, KubernetesRole role) {
    Reader r = k.reader();
    Set<KubernetesRole> seen = new HashSet<>();
    return k.list(
        "selectors",
        (node, path) -> {
          MapView s = r.view(node, node.pos(), path, K8S_SELECTOR);
          KubernetesRole selRole = KubernetesRole.fromYamlName(s.string("role", ""));
          String label = s.string("label", "");
          String field = s.string("field", "");
          String problem = Checks.labelSelectorProblem(label);
          if (problem != null) {
            s.error("label", problem);
          }
          s.finish();
          if (selRole == null) {
            s.error("role", "invalid selector role " + Checks.quote(s.string("role", "")));
            return null;
          }
          if (!seen.add(selRole)) {
            s.error("role", "duplicated selector role: " + selRole);
            return null;
          }
          List<KubernetesRole> allowed = allowedSelectors(role);
          if (role != null && !allowed.contains(selRole)) {
            s.error(
                "role",
                role
                    + " role supports only "
                    + String.join(", ", allowed.stream().map(KubernetesRole::yamlName).toList())
                    + " selectors");
            return null;
          }
          return new KubernetesSdConfig.Selector(selRole, label, field);
        });
  }

  private static List<KubernetesRole> allowedSelectors(KubernetesRole role) {
    if (role == KubernetesRole.ENDPOINTS) {
      return List.of(KubernetesRole.POD, KubernetesRole.SERVICE, KubernetesRole.ENDPOINTS);
    }
    if (role == KubernetesRole.ENDPOINTSLICE) {
      return List.of(KubernetesRole.POD, KubernetesRole.SERVICE, KubernetesRole.ENDPOINTSLICE);
    }
    return role == null ? List.of() : List.of(role);
  }

  /** Names of discovery mechanisms used but not implemented; each gets a warning. */
  static List<String> unsupportedSd(MapView v) {
    List<String> kinds = new ArrayList<>();
    for (String key : OTHER_SD.ownKeys()) {
      if (v.has(key)) {
        kinds.add(key);
        v.warn(key, key + " is not supported by infermon; this job discovers no targets from it");
      }
    }
    return List.copyOf(kinds);
  }

  static Duration positiveOr(Duration d, Duration def) {
    return d == null || d.isZero() ? def : d;
  }

  static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static long nonZeroOr(long v, long def) {
    return v == 0 ? def : v;
  }

  private static ByteSize nonZeroOr(ByteSize v, ByteSize def) {
    return v.bytes() == 0 ? def : v;
  }
}
