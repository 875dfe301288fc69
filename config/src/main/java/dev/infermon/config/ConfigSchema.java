package dev.infermon.config;

import dev.infermon.config.yaml.Section;
import java.util.List;

/**
 * Every mapping of the configuration file and the keys it may hold. The mapping code reads keys
 * through these sections (and may read no others), unknown keys are reported against them, and
 * {@code ConfigurationDocsTest} checks that docs/configuration.md documents each of them.
 */
final class ConfigSchema {
  private ConfigSchema() {}

  static final Section TLS =
      Section.of(
          "tls_config",
          List.of(
              "ca",
              "ca_file",
              "cert",
              "cert_file",
              "key",
              "key_file",
              "server_name",
              "insecure_skip_verify",
              "min_version",
              "max_version"));

  static final Section BASIC_AUTH =
      Section.of("basic_auth", List.of("username", "username_file", "password", "password_file"));

  static final Section AUTHORIZATION =
      Section.of("authorization", List.of("type", "credentials", "credentials_file"));

  static final Section PROXY =
      Section.of(
          "proxy_config",
          List.of("proxy_url", "no_proxy", "proxy_from_environment", "proxy_connect_header"));

  static final Section OAUTH2 =
      Section.of(
          "oauth2",
          List.of(
              "client_id",
              "client_secret",
              "client_secret_file",
              "scopes",
              "token_url",
              "endpoint_params",
              "tls_config"),
          PROXY);

  static final Section HTTP_HEADER =
      Section.of("http_header", List.of("values", "secrets", "files"));

  static final Section HTTP_CLIENT =
      Section.of(
          "http_client_config",
          List.of(
              "basic_auth",
              "authorization",
              "oauth2",
              "bearer_token",
              "bearer_token_file",
              "tls_config",
              "follow_redirects",
              "enable_http2",
              "http_headers"),
          PROXY);

  static final Section STATIC = Section.of("static_config", List.of("targets", "labels"));

  static final Section FILE_SD = Section.of("file_sd_config", List.of("files", "refresh_interval"));

  static final Section K8S_NAMESPACES =
      Section.of("kubernetes_namespaces", List.of("own_namespace", "names"));

  static final Section K8S_SELECTOR =
      Section.of("kubernetes_selector", List.of("role", "label", "field"));

  static final Section K8S_ATTACH =
      Section.of("kubernetes_attach_metadata", List.of("node", "namespace"));

  static final Section K8S_SD =
      Section.of(
          "kubernetes_sd_config",
          List.of(
              "api_server",
              "role",
              "kubeconfig_file",
              "namespaces",
              "selectors",
              "attach_metadata"),
          HTTP_CLIENT);

  /** Discovery mechanisms of Prometheus that infermon accepts but does not implement. */
  static final Section OTHER_SD =
      Section.of(
          "unsupported_sd_configs",
          List.of(
              "azure_sd_configs",
              "consul_sd_configs",
              "digitalocean_sd_configs",
              "docker_sd_configs",
              "dockerswarm_sd_configs",
              "dns_sd_configs",
              "ec2_sd_configs",
              "eureka_sd_configs",
              "gce_sd_configs",
              "hetzner_sd_configs",
              "http_sd_configs",
              "ionos_sd_configs",
              "kuma_sd_configs",
              "lightsail_sd_configs",
              "linode_sd_configs",
              "marathon_sd_configs",
              "nerve_sd_configs",
              "nomad_sd_configs",
              "openstack_sd_configs",
              "oci_sd_configs",
              "ovhcloud_sd_configs",
              "puppetdb_sd_configs",
              "scaleway_sd_configs",
              "serverset_sd_configs",
              "stackit_sd_configs",
              "triton_sd_configs",
              "uyuni_sd_configs",
              "vultr_sd_configs"));

  static final Section SD =
      Section.of(
          "service_discovery",
          List.of("static_configs", "file_sd_configs", "kubernetes_sd_configs"),
          OTHER_SD);

  static final Section RELABEL =
      Section.of(
          "relabel_config",
          List.of(
              "source_labels",
              "separator",
              "regex",
              "modulus",
              "target_label",
              "replacement",
              "action"));

  static final Section GLOBAL =
      Section.of(
          "global",
          List.of(
              "scrape_interval",
              "scrape_timeout",
              "scrape_protocols",
              "evaluation_interval",
              "rule_query_offset",
              "query_log_file",
              "scrape_failure_log_file",
              "external_labels",
              "body_size_limit",
              "sample_limit",
              "target_limit",
              "label_limit",
              "label_name_length_limit",
              "label_value_length_limit",
              "keep_dropped_targets",
              "metric_name_validation_scheme",
              "metric_name_escaping_scheme",
              "scrape_native_histograms",
              "convert_classic_histograms_to_nhcb",
              "always_scrape_classic_histograms",
              "extra_scrape_metrics",
              "scrape_sharding"));

  static final Section SCRAPE_SHARDING =
      Section.of("scrape_sharding", List.of("replicas", "index", "source_labels"));

  static final Section SCRAPE =
      Section.of(
          "scrape_config",
          List.of(
              "job_name",
              "honor_labels",
              "honor_timestamps",
              "track_timestamps_staleness",
              "params",
              "scrape_interval",
              "scrape_timeout",
              "scrape_protocols",
              "fallback_scrape_protocol",
              "scrape_native_histograms",
              "always_scrape_classic_histograms",
              "convert_classic_histograms_to_nhcb",
              "scrape_failure_log_file",
              "metrics_path",
              "scheme",
              "enable_compression",
              "body_size_limit",
              "sample_limit",
              "target_limit",
              "label_limit",
              "label_name_length_limit",
              "label_value_length_limit",
              "native_histogram_bucket_limit",
              "native_histogram_min_bucket_factor",
              "keep_dropped_targets",
              "metric_name_validation_scheme",
              "metric_name_escaping_scheme",
              "extra_scrape_metrics",
              "relabel_configs",
              "metric_relabel_configs"),
          SD,
          HTTP_CLIENT);

  static final Section ALERTMANAGER =
      Section.of(
          "alertmanager_config",
          List.of(
              "scheme",
              "path_prefix",
              "timeout",
              "api_version",
              "relabel_configs",
              "alert_relabel_configs",
              "sigv4"),
          SD,
          HTTP_CLIENT);

  static final Section ALERTING =
      Section.of("alerting", List.of("alert_relabel_configs", "alertmanagers", "webhooks"));

  static final Section WEBHOOK =
      Section.of("webhook_config", List.of("url", "timeout", "alert_relabel_configs"), HTTP_CLIENT);

  static final Section QUEUE =
      Section.of(
          "queue_config",
          List.of(
              "capacity",
              "max_shards",
              "min_shards",
              "max_samples_per_send",
              "batch_send_deadline",
              "min_backoff",
              "max_backoff",
              "retry_on_http_429",
              "sample_age_limit"));

  static final Section METADATA =
      Section.of("metadata_config", List.of("send", "send_interval", "max_samples_per_send"));

  static final Section REMOTE_WRITE =
      Section.of(
          "remote_write",
          List.of(
              "url",
              "name",
              "remote_timeout",
              "headers",
              "write_relabel_configs",
              "send_exemplars",
              "send_native_histograms",
              "round_robin_dns",
              "protobuf_message",
              "queue_config",
              "metadata_config",
              "sigv4",
              "azuread",
              "google_iam"),
          HTTP_CLIENT);

  static final Section REMOTE_READ =
      Section.of(
          "remote_read",
          List.of(
              "url",
              "name",
              "remote_timeout",
              "chunked_read_limit",
              "headers",
              "read_recent",
              "required_matchers",
              "filter_external_labels"),
          HTTP_CLIENT);

  static final Section TRACING =
      Section.of(
          "tracing",
          List.of(
              "client_type",
              "endpoint",
              "sampling_fraction",
              "insecure",
              "tls_config",
              "headers",
              "compression",
              "timeout"));

  static final Section STORAGE_RETENTION =
      Section.of("storage.tsdb.retention", List.of("time", "size"));

  static final Section STORAGE_TSDB =
      Section.of(
          "storage.tsdb",
          List.of(
              "path", "retention", "out_of_order_time_window", "too_far_in_future_time_window"));

  static final Section STORAGE_EXEMPLARS =
      Section.of("storage.exemplars", List.of("max_exemplars"));

  static final Section STORAGE_REMOTE =
      Section.of("storage.remote", List.of("query_url", "timeout"), HTTP_CLIENT);

  static final Section STORAGE =
      Section.of("storage", List.of("mode", "tsdb", "exemplars", "remote"));

  static final Section INFERENCE_WORKLOAD =
      Section.of(
          "inference.workloads", List.of("name", "namespace", "scrape_interval", "scrape_timeout"));

  static final Section DCGM =
      Section.of(
          "inference.dcgm",
          List.of("enabled", "label_selector", "port", "port_name", "namespaces", "metrics_path"));

  static final Section AMDGPU =
      Section.of(
          "inference.amdgpu",
          List.of("enabled", "label_selector", "port", "port_name", "namespaces", "metrics_path"));

  static final Section INFERENCE =
      Section.of(
          "inference",
          List.of(
              "enabled",
              "kubeconfig_file",
              "namespaces",
              "label_selector",
              "port_name",
              "metrics_path",
              "scrape_interval",
              "scrape_timeout",
              "workload_label",
              "workload_labels",
              "backend_labels",
              "backend_by_label",
              "role_labels",
              "metrics_paths",
              "metrics_ports",
              "metrics_ports_by_label",
              "metrics_paths_by_label",
              "workloads",
              "dcgm",
              "amdgpu"));

  static final Section LLM_ALERTS =
      Section.of(
          "llm.alerts",
          List.of(
              "enabled",
              "ttft_quantile",
              "ttft_threshold",
              "ttft_for",
              "waiting_threshold",
              "waiting_for",
              "failure_ratio",
              "failure_for",
              "failure_min_count"));

  static final Section LLM_SLO =
      Section.of(
          "llm.slos",
          List.of("name", "model", "sli", "engine", "threshold", "objective", "window"));

  static final Section LLM_COST =
      Section.of("llm.cost", List.of("currency", "default_gpu_hour_price", "gpu_hour_prices"));

  static final Section LLM_DASHBOARD = Section.of("llm.dashboard", List.of("rollups"));

  static final Section LLM =
      Section.of("llm", List.of("alerts", "quantiles", "slos", "cost", "dashboard"));

  static final Section UI = Section.of("ui", List.of("enabled", "title", "default_range"));

  static final Section WEB_AUTH = Section.of("web.auth", List.of("bearer_tokens", "basic_users"));

  static final Section WEB_TLS = Section.of("web.tls", List.of("cert_file", "key_file"));

  static final Section WEB =
      Section.of(
          "web",
          List.of(
              "listen_address",
              "max_concurrent_queries",
              "max_request_body_size",
              "remote_write_max_body_size",
              "auth",
              "tls"));

  static final Section ROOT =
      Section.of(
          "configuration_file",
          List.of(
              "global",
              "rule_files",
              "scrape_config_files",
              "scrape_configs",
              "alerting",
              "remote_write",
              "remote_read",
              "storage",
              "tracing",
              "otlp",
              "runtime",
              "inference",
              "llm",
              "ui",
              "web"));

  /** Every section, in documentation order. */
  static final List<Section> ALL =
      List.of(
          ROOT,
          GLOBAL,
          SCRAPE_SHARDING,
          SCRAPE,
          SD,
          OTHER_SD,
          STATIC,
          FILE_SD,
          K8S_SD,
          K8S_NAMESPACES,
          K8S_SELECTOR,
          K8S_ATTACH,
          HTTP_CLIENT,
          BASIC_AUTH,
          AUTHORIZATION,
          OAUTH2,
          PROXY,
          HTTP_HEADER,
          TLS,
          RELABEL,
          ALERTING,
          ALERTMANAGER,
          WEBHOOK,
          REMOTE_WRITE,
          QUEUE,
          METADATA,
          REMOTE_READ,
          TRACING,
          STORAGE,
          STORAGE_TSDB,
          STORAGE_RETENTION,
          STORAGE_EXEMPLARS,
          STORAGE_REMOTE,
          INFERENCE,
          INFERENCE_WORKLOAD,
          DCGM,
          AMDGPU,
          LLM,
          LLM_ALERTS,
          LLM_SLO,
          LLM_COST,
          LLM_DASHBOARD,
          UI,
          WEB,
          WEB_AUTH,
          WEB_TLS);
}
