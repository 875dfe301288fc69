package dev.infermon.config;

import static dev.infermon.config.ConfigSchema.AMDGPU;
import static dev.infermon.config.ConfigSchema.DCGM;
import static dev.infermon.config.ConfigSchema.INFERENCE_WORKLOAD;
import static dev.infermon.config.ConfigSchema.LLM_ALERTS;
import static dev.infermon.config.ConfigSchema.LLM_COST;
import static dev.infermon.config.ConfigSchema.LLM_DASHBOARD;
import static dev.infermon.config.ConfigSchema.LLM_SLO;
import static dev.infermon.config.ConfigSchema.STORAGE_EXEMPLARS;
import static dev.infermon.config.ConfigSchema.STORAGE_REMOTE;
import static dev.infermon.config.ConfigSchema.STORAGE_RETENTION;
import static dev.infermon.config.ConfigSchema.STORAGE_TSDB;
import static dev.infermon.config.ConfigSchema.WEB_AUTH;
import static dev.infermon.config.ConfigSchema.WEB_TLS;

import dev.infermon.config.app.InferenceConfig;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.app.UiConfig;
import dev.infermon.config.app.WebConfig;
import dev.infermon.config.scrape.GlobalConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.value.Secret;
import dev.infermon.config.value.Url;
import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Reader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads infermon's own sections: storage, inference, llm, ui and web. */
final class AppMapping {
  private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]?\\$\\d\\d\\$[./A-Za-z0-9]{53}");
  private static final Pattern SHA256 = Pattern.compile("sha256:[0-9a-fA-F]{64}");

  private AppMapping() {}

  static StorageConfig storage(MapView s) {
    String modeName = s.string("mode", StorageConfig.Mode.EMBEDDED.yamlName());
    StorageConfig.Mode mode = StorageConfig.Mode.EMBEDDED;
    boolean known = false;
    for (StorageConfig.Mode m : StorageConfig.Mode.values()) {
      if (m.yamlName().equals(modeName)) {
        mode = m;
        known = true;
      }
    }
    if (!known) {
      s.error(
          "mode",
          "unknown storage mode "
              + Checks.quote(modeName)
              + ", expected one of embedded, remote, agent");
    }
    MapView t = s.map("tsdb", STORAGE_TSDB);
    MapView ret = t.map("retention", STORAGE_RETENTION);
    StorageConfig.Retention retention =
        new StorageConfig.Retention(
            ScrapeMapping.positiveOr(
                ret.duration("time", null), StorageConfig.Retention.DEFAULT_TIME),
            ret.bytes("size", StorageConfig.Retention.DEFAULT.size()));
    ret.finish();
    StorageConfig.Tsdb tsdb =
        new StorageConfig.Tsdb(
            t.string("path", StorageConfig.Tsdb.DEFAULT_PATH),
            retention,
            t.duration("out_of_order_time_window", Duration.ZERO),
            t.duration(
                "too_far_in_future_time_window",
                StorageConfig.Tsdb.DEFAULT_TOO_FAR_IN_FUTURE_TIME_WINDOW));
    if (t.has("path") && tsdb.path().isBlank()) {
      t.error("path", "storage.tsdb.path must not be empty");
    }
    if (t.has("too_far_in_future_time_window") && tsdb.tooFarInFutureTimeWindow().toMillis() < 1) {
      t.error(
          "too_far_in_future_time_window",
          "storage.tsdb.too_far_in_future_time_window must be positive: later samples would all"
              + " be refused");
    }
    t.finish();
    MapView e = s.map("exemplars", STORAGE_EXEMPLARS);
    StorageConfig.Exemplars exemplars =
        new StorageConfig.Exemplars(
            e.count("max_exemplars", StorageConfig.Exemplars.DEFAULT.maxExemplars()));
    e.finish();
    MapView r = s.map("remote", STORAGE_REMOTE);
    Url queryUrl = Checks.url(r, "query_url");
    StorageConfig.Remote remote =
        new StorageConfig.Remote(
            Optional.ofNullable(queryUrl),
            r.duration("timeout", StorageConfig.Remote.DEFAULT_TIMEOUT),
            HttpMapping.read(r, HttpClientConfig.DEFAULT));
    r.finish();
    if (mode == StorageConfig.Mode.REMOTE && !r.has("query_url")) {
      s.error("mode", "storage.mode remote needs storage.remote.query_url");
    }
    s.finish();
    return new StorageConfig(mode, tsdb, exemplars, remote);
  }

  static InferenceConfig inference(MapView v, GlobalConfig g) {
    List<String> namespaces = v.strings("namespaces", List.of());
    String selector = selector(v, "label_selector", InferenceConfig.DEFAULT_LABEL_SELECTOR);
    String metricsPath = path(v, "metrics_path", InferenceConfig.DEFAULT_METRICS_PATH);
    Duration interval =
        ScrapeMapping.positiveOr(v.duration("scrape_interval", null), g.scrapeInterval());
    Duration timeout = timeout(v, interval, g.scrapeTimeout());
    List<String> workloadLabels = workloadLabels(v);
    List<String> backendLabels =
        labelKeys(v, "backend_labels", InferenceConfig.DEFAULT_BACKEND_LABELS);
    Map<String, String> backendByLabel =
        v.has("backend_by_label")
            ? v.stringMap("backend_by_label")
            : InferenceConfig.DEFAULT_BACKEND_BY_LABEL;
    for (String k : backendByLabel.keySet()) {
      String problem = Checks.labelMatcherProblem(k);
      if (problem != null) {
        v.error("backend_by_label", problem);
      }
    }
    List<String> roleLabels = labelKeys(v, "role_labels", InferenceConfig.DEFAULT_ROLE_LABELS);
    Map<String, String> metricsPaths = new LinkedHashMap<>(InferenceConfig.DEFAULT_METRICS_PATHS);
    if (v.has("metrics_paths")) {
      metricsPaths.clear();
      v.stringMap("metrics_paths")
          .forEach(
              (backend, p) -> {
                if (!p.startsWith("/")) {
                  v.error(
                      "metrics_paths",
                      "path "
                          + Checks.quote(p)
                          + " of backend "
                          + Checks.quote(backend)
                          + " must start with /");
                }
                metricsPaths.put(backend, p);
              });
    }
    Map<String, InferenceConfig.MetricsPort> metricsPorts = metricsPorts(v);
    Map<String, InferenceConfig.MetricsPort> metricsPortsByLabel = metricsPortsByLabel(v);
    Map<String, String> metricsPathsByLabel = metricsPathsByLabel(v);
    Reader r = v.reader();
    Set<String> seen = new HashSet<>();
    List<InferenceConfig.WorkloadOverride> workloads =
        v.list(
            "workloads",
            (node, path) -> {
              MapView w = r.view(node, node.pos(), path, INFERENCE_WORKLOAD);
              String name = w.string("name", "");
              String ns = w.string("namespace", "");
              if (name.isEmpty()) {
                w.error("workload name is empty");
              } else if (!seen.add(ns + "/" + name)) {
                w.error(
                    "name",
                    "duplicate override for workload "
                        + Checks.quote(name)
                        + (ns.isEmpty() ? "" : " in namespace " + Checks.quote(ns)));
              }
              Duration wi = ScrapeMapping.positiveOr(w.duration("scrape_interval", null), interval);
              Duration wt = timeout(w, wi, timeout);
              w.finish();
              return name.isEmpty() ? null : new InferenceConfig.WorkloadOverride(name, ns, wi, wt);
            });
    InferenceConfig.GpuExporterConfig dcgm =
        gpuExporter(v.map("dcgm", DCGM), InferenceConfig.GpuExporterConfig.DCGM_DEFAULT);
    InferenceConfig.GpuExporterConfig amdgpu =
        gpuExporter(v.map("amdgpu", AMDGPU), InferenceConfig.GpuExporterConfig.AMDGPU_DEFAULT);
    InferenceConfig c =
        new InferenceConfig(
            v.bool("enabled", false),
            v.file("kubeconfig_file"),
            namespaces,
            selector,
            v.string("port_name", InferenceConfig.DEFAULT_PORT_NAME),
            metricsPath,
            interval,
            timeout,
            workloadLabels,
            backendLabels,
            backendByLabel,
            roleLabels,
            metricsPaths,
            metricsPorts,
            metricsPortsByLabel,
            metricsPathsByLabel,
            workloads,
            dcgm,
            amdgpu);
    v.finish();
    return c;
  }

  /** A GPU exporter's block ({@code inference.dcgm}, {@code inference.amdgpu}). */
  private static InferenceConfig.GpuExporterConfig gpuExporter(
      MapView d, InferenceConfig.GpuExporterConfig dd) {
    int port = d.intCount("port", dd.port());
    if (port < 1 || port > 65535) {
      d.error("port", "port must be between 1 and 65535, got " + port);
    }
    InferenceConfig.GpuExporterConfig out =
        new InferenceConfig.GpuExporterConfig(
            d.bool("enabled", dd.enabled()),
            selector(d, "label_selector", dd.labelSelector()),
            port,
            d.string("port_name", dd.portName()),
            d.strings("namespaces", dd.namespaces()),
            path(d, "metrics_path", dd.metricsPath()));
    d.finish();
    return out;
  }

  /**
   * {@code metrics_ports}: backend to a port name or number; given, it replaces the defaults
   * (Triton's 8002), as {@code metrics_paths} does.
   */
  private static Map<String, InferenceConfig.MetricsPort> metricsPorts(MapView v) {
    if (!v.has("metrics_ports")) {
      return InferenceConfig.DEFAULT_METRICS_PORTS;
    }
    Map<String, InferenceConfig.MetricsPort> out = new LinkedHashMap<>();
    v.stringMap("metrics_ports")
        .forEach(
            (backend, p) -> {
              try {
                out.put(backend, InferenceConfig.MetricsPort.parse(p));
              } catch (IllegalArgumentException e) {
                v.error(
                    "metrics_ports", "backend " + Checks.quote(backend) + ": " + e.getMessage());
              }
            });
    return out;
  }

  /**
   * {@code metrics_ports_by_label}: a pod label matcher ({@code key} or {@code key=value}) to a
   * port name or number, in the order given; given, it replaces the defaults (Dynamo's frontend on
   * {@code http}, its other components on {@code system}).
   */
  private static Map<String, InferenceConfig.MetricsPort> metricsPortsByLabel(MapView v) {
    if (!v.has("metrics_ports_by_label")) {
      return InferenceConfig.DEFAULT_METRICS_PORTS_BY_LABEL;
    }
    Map<String, InferenceConfig.MetricsPort> out = new LinkedHashMap<>();
    v.stringMap("metrics_ports_by_label")
        .forEach(
            (matcher, p) -> {
              String problem = Checks.labelMatcherProblem(matcher);
              if (problem != null) {
                v.error("metrics_ports_by_label", problem);
                return;
              }
              try {
                out.put(matcher, InferenceConfig.MetricsPort.parse(p));
              } catch (IllegalArgumentException e) {
                v.error(
                    "metrics_ports_by_label",
                    "pods with " + Checks.quote(matcher) + ": " + e.getMessage());
              }
            });
    return out;
  }

  /**
   * {@code metrics_paths_by_label}: a pod label matcher to a path, in the order given; given, it
   * replaces the default (Dynamo's components at {@code /metrics}).
   */
  private static Map<String, String> metricsPathsByLabel(MapView v) {
    if (!v.has("metrics_paths_by_label")) {
      return InferenceConfig.DEFAULT_METRICS_PATHS_BY_LABEL;
    }
    Map<String, String> out = new LinkedHashMap<>();
    v.stringMap("metrics_paths_by_label")
        .forEach(
            (matcher, p) -> {
              String problem = Checks.labelMatcherProblem(matcher);
              if (problem != null) {
                v.error("metrics_paths_by_label", problem);
              } else if (!p.startsWith("/")) {
                v.error(
                    "metrics_paths_by_label",
                    "path "
                        + Checks.quote(p)
                        + " of pods with "
                        + Checks.quote(matcher)
                        + " must start with /");
              } else {
                out.put(matcher, p);
              }
            });
    return out;
  }

  private static Duration timeout(MapView v, Duration interval, Duration defaultTimeout) {
    Duration t = v.duration("scrape_timeout", null);
    if (t != null && t.compareTo(interval) > 0) {
      v.error("scrape_timeout", "scrape_timeout greater than scrape_interval");
    }
    return t == null || t.isZero() ? ScrapeMapping.min(defaultTimeout, interval) : t;
  }

  private static String selector(MapView v, String key, String def) {
    String s = v.string(key, def);
    String problem = Checks.labelSelectorProblem(s);
    if (problem != null) {
      v.error(key, problem);
    }
    return s;
  }

  private static String path(MapView v, String key, String def) {
    String p = v.string(key, def);
    if (!p.startsWith("/")) {
      v.error(key, key + " must start with /, got " + Checks.quote(p));
    }
    return p;
  }

  /** {@code workload_label} (one key, the older form) or {@code workload_labels}, not both. */
  private static List<String> workloadLabels(MapView v) {
    if (v.has("workload_label") && v.has("workload_labels")) {
      v.error("workload_labels", "set workload_label or workload_labels, not both");
    }
    if (v.has("workload_label")) {
      String k = v.string("workload_label", InferenceConfig.DEFAULT_WORKLOAD_LABEL);
      if (!Checks.isKubernetesLabelKey(k)) {
        v.error("workload_label", Checks.quote(k) + " is not a valid Kubernetes label key");
      }
      return List.of(k);
    }
    return labelKeys(v, "workload_labels", InferenceConfig.DEFAULT_WORKLOAD_LABELS);
  }

  private static List<String> labelKeys(MapView v, String key, List<String> def) {
    List<String> keys = v.strings(key, def);
    for (String k : keys) {
      if (!Checks.isKubernetesLabelKey(k)) {
        v.error(key, Checks.quote(k) + " is not a valid Kubernetes label key");
      }
    }
    return keys;
  }

  static LlmConfig llm(MapView v) {
    MapView a = v.map("alerts", LLM_ALERTS);
    LlmConfig.Alerts d = LlmConfig.Alerts.DEFAULT;
    double q = a.number("ttft_quantile", d.ttftQuantile());
    if (!(q > 0 && q < 1)) {
      a.error("ttft_quantile", "must be between 0 and 1 (exclusive), got " + q);
    }
    Duration threshold = a.duration("ttft_threshold", d.ttftThreshold());
    if (threshold.isZero()) {
      a.error("ttft_threshold", "must be greater than 0s");
    }
    double failures = a.number("failure_ratio", d.failureRatio());
    if (!(failures > 0 && failures < 1)) {
      a.error("failure_ratio", "must be between 0 and 1 (exclusive), got " + failures);
    }
    LlmConfig.Alerts alerts =
        new LlmConfig.Alerts(
            a.bool("enabled", d.enabled()),
            q,
            threshold,
            a.duration("ttft_for", d.ttftFor()),
            a.count("waiting_threshold", d.waitingThreshold()),
            a.duration("waiting_for", d.waitingFor()),
            failures,
            a.duration("failure_for", d.failureFor()),
            a.count("failure_min_count", d.failureMinCount()));
    a.finish();
    List<Double> quantiles = LlmConfig.DEFAULT_QUANTILES;
    if (v.has("quantiles")) {
      List<Double> qs = new ArrayList<>();
      for (String s : v.strings("quantiles", List.of())) {
        try {
          double x = Double.parseDouble(s);
          if (x > 0 && x < 1) {
            qs.add(x);
            continue;
          }
        } catch (NumberFormatException e) {
          // reported below
        }
        v.error(
            "quantiles",
            "each quantile must be a number between 0 and 1 (exclusive), got " + Checks.quote(s));
      }
      quantiles = List.copyOf(qs);
    }
    List<LlmConfig.Slo> slos = slos(v);
    LlmConfig.Cost cost = cost(v.map("cost", LLM_COST));
    MapView dash = v.map("dashboard", LLM_DASHBOARD);
    boolean rollups = dash.bool("rollups", LlmConfig.Dashboard.DEFAULT.rollups());
    dash.finish();
    v.finish();
    return new LlmConfig(alerts, quantiles, slos, cost, new LlmConfig.Dashboard(rollups));
  }

  /** {@code llm.cost}: prices are numbers of at least 0; a GPU model is any non-empty key. */
  private static LlmConfig.Cost cost(MapView c) {
    String currency = c.string("currency", LlmConfig.Cost.DEFAULT_CURRENCY);
    if (currency.isBlank()) {
      c.error("currency", "must not be empty");
      currency = LlmConfig.Cost.DEFAULT_CURRENCY;
    }
    Optional<Double> def = Optional.empty();
    if (c.has("default_gpu_hour_price")) {
      double p = c.number("default_gpu_hour_price", 0);
      if (!(p >= 0) || Double.isInfinite(p)) {
        c.error("default_gpu_hour_price", "a price must be a number of at least 0, got " + p);
      } else {
        def = Optional.of(p);
      }
    }
    Map<String, Double> prices = new LinkedHashMap<>();
    Reader r = c.reader();
    for (Map.Entry<String, Node.Entry> e : c.entries("gpu_hour_prices").entrySet()) {
      String path = c.path("gpu_hour_prices") + "." + e.getKey();
      Node n = e.getValue().value();
      Double p = price(n);
      if (e.getKey().isBlank()) {
        r.error(e.getValue().keyPos(), path, "a GPU model (dcgm-exporter's modelName) is empty");
      } else if (p == null) {
        r.error(n.pos(), path, "a price must be a number of at least 0, got " + n.describe());
      } else {
        prices.put(e.getKey(), p);
      }
    }
    c.finish();
    return new LlmConfig.Cost(currency, def, prices);
  }

  /** A finite number of at least 0, or null. */
  private static Double price(Node n) {
    if (n instanceof Node.ScalarNode) {
      Node.ScalarNode s = (Node.ScalarNode) n;
      if (s.type() == Node.ScalarType.INT || s.type() == Node.ScalarType.FLOAT) {
        try {
          double p = Double.parseDouble(s.text());
          return p >= 0 && Double.isFinite(p) ? p : null;
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static List<LlmConfig.Slo> slos(MapView v) {
    Reader r = v.reader();
    Set<String> names = new HashSet<>();
    return v.list(
        "slos",
        (node, path) -> {
          MapView s = r.view(node, node.pos(), path, LLM_SLO);
          String model = s.string("model", "");
          if (model.isEmpty()) {
            s.error("model", "an SLO needs the model it is about");
          }
          String sli = s.string("sli", "");
          if (!LlmConfig.Slo.SLIS.contains(sli)) {
            s.error(
                "sli",
                "unknown SLI "
                    + Checks.quote(sli)
                    + ", expected one of "
                    + String.join(", ", LlmConfig.Slo.SLIS));
          }
          String engine = s.string("engine", "");
          if (!engine.isEmpty() && !engine.equals("vllm") && !engine.equals("sglang")) {
            s.error("engine", "engine must be vllm or sglang, got " + Checks.quote(engine));
          }
          Duration threshold = s.duration("threshold", Duration.ZERO);
          if (sli.equals("success") && !threshold.isZero()) {
            s.error("threshold", "a success SLO has no latency threshold");
          } else if (!sli.equals("success") && threshold.isZero()) {
            s.error("threshold", "a latency SLO needs a threshold greater than 0s");
          }
          double objective = s.number("objective", 0);
          if (!(objective > 0 && objective < 1)) {
            s.error("objective", "must be between 0 and 1 (exclusive), got " + objective);
          }
          Duration window = s.duration("window", LlmConfig.Slo.DEFAULT_WINDOW);
          if (window.isZero()) {
            s.error("window", "must be greater than 0s");
          }
          String name = s.string("name", model.isEmpty() ? "" : model + "-" + sli);
          if (!name.isEmpty() && !names.add(name)) {
            s.error("name", "duplicate SLO name " + Checks.quote(name));
          }
          s.finish();
          return new LlmConfig.Slo(name, model, sli, engine, threshold, objective, window);
        });
  }

  static UiConfig ui(MapView v) {
    UiConfig d = UiConfig.DEFAULT;
    Duration range = v.duration("default_range", d.defaultRange());
    if (range.isZero()) {
      v.error("default_range", "must be greater than 0s");
    }
    UiConfig c = new UiConfig(v.bool("enabled", d.enabled()), v.string("title", d.title()), range);
    v.finish();
    return c;
  }

  static WebConfig web(MapView v) {
    WebConfig d = WebConfig.DEFAULT;
    String listen = v.string("listen_address", d.listenAddress());
    String problem = Checks.listenAddressProblem(listen);
    if (problem != null) {
      v.error("listen_address", problem);
    }
    int maxQueries = v.intCount("max_concurrent_queries", d.maxConcurrentQueries());
    if (maxQueries < 1) {
      v.error("max_concurrent_queries", "must be at least 1");
    }
    MapView a = v.map("auth", WEB_AUTH);
    List<Secret> tokens = new ArrayList<>();
    for (String t : a.strings("bearer_tokens", List.of())) {
      if (t.isEmpty()) {
        a.error("bearer_tokens", "bearer tokens must not be empty");
      } else {
        tokens.add(Secret.of(t));
      }
    }
    Map<String, Secret> users = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : a.stringMap("basic_users").entrySet()) {
      String hash = e.getValue();
      if (!BCRYPT.matcher(hash).matches() && !SHA256.matcher(hash).matches()) {
        a.error(
            "basic_users",
            "password of user "
                + Checks.quote(e.getKey())
                + " must be a bcrypt hash ($2y$...) or sha256:<64 hex digits>; plain-text"
                + " passwords are not accepted");
      } else {
        users.put(e.getKey(), Secret.of(hash));
      }
    }
    a.finish();
    MapView t = v.map("tls", WEB_TLS);
    String cert = t.file("cert_file");
    String key = t.file("key_file");
    if (cert.isEmpty() != key.isEmpty()) {
      t.error(
          cert.isEmpty() ? "key_file" : "cert_file", "cert_file and key_file must be set together");
    }
    t.finish();
    WebConfig c =
        new WebConfig(
            listen,
            maxQueries,
            v.bytes("max_request_body_size", d.maxRequestBodySize()),
            v.bytes("remote_write_max_body_size", d.remoteWriteMaxBodySize()),
            new WebConfig.Auth(List.copyOf(tokens), java.util.Collections.unmodifiableMap(users)),
            new WebConfig.Tls(cert, key));
    v.finish();
    return c;
  }

  static boolean isNull(Node n) {
    return n instanceof Node.ScalarNode && ((Node.ScalarNode) n).type() == Node.ScalarType.NULL;
  }
}
