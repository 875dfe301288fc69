package dev.infermon.config;

import static dev.infermon.config.ConfigSchema.ALERTMANAGER;
import static dev.infermon.config.ConfigSchema.METADATA;
import static dev.infermon.config.ConfigSchema.QUEUE;
import static dev.infermon.config.ConfigSchema.REMOTE_READ;
import static dev.infermon.config.ConfigSchema.REMOTE_WRITE;
import static dev.infermon.config.ConfigSchema.TLS;
import static dev.infermon.config.ConfigSchema.WEBHOOK;

import dev.infermon.config.remote.AlertingConfig;
import dev.infermon.config.remote.AlertmanagerConfig;
import dev.infermon.config.remote.MetadataConfig;
import dev.infermon.config.remote.QueueConfig;
import dev.infermon.config.remote.RemoteReadConfig;
import dev.infermon.config.remote.RemoteWriteConfig;
import dev.infermon.config.remote.TracingConfig;
import dev.infermon.config.remote.WebhookConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.value.Url;
import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Reader;
import dev.infermon.model.relabel.RelabelConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Reads {@code alerting}, {@code remote_write}, {@code remote_read} and {@code tracing}. */
final class RemoteMapping {
  // Headers a remote config may not set (config.go's reservedHeaders).
  private static final Set<String> RESERVED_HEADERS =
      Set.of(
          "host",
          "content-encoding",
          "content-length",
          "content-type",
          "user-agent",
          "connection",
          "keep-alive",
          "proxy-authenticate",
          "proxy-authorization",
          "www-authenticate",
          "accept-encoding",
          "x-prometheus-remote-write-version",
          "x-prometheus-remote-read-version",
          "x-amz-date",
          "x-amz-security-token",
          "x-amz-content-sha256");

  private RemoteMapping() {}

  static AlertingConfig alerting(MapView a) {
    List<RelabelConfig> relabel =
        RelabelMapping.list(a, "alert_relabel_configs", "empty or null alert relabeling rule");
    Reader r = a.reader();
    List<AlertmanagerConfig> ams =
        a.list(
            "alertmanagers",
            (node, path) -> alertmanager(r.view(node, node.pos(), path, ALERTMANAGER)));
    List<WebhookConfig> hooks =
        a.list(
            "webhooks",
            (node, path) -> {
              if (isNull(node)) {
                r.error(node.pos(), path, "empty or null webhook config");
                return null;
              }
              return webhook(r.view(node, node.pos(), path, WEBHOOK));
            });
    a.finish();
    return new AlertingConfig(relabel, ams, hooks);
  }

  /**
   * One {@code alerting.webhooks[]} entry; null (with the problem reported) when it is unusable.
   */
  private static WebhookConfig webhook(MapView v) {
    Url url = requiredUrl(v, "url for webhook is empty");
    java.time.Duration timeout = v.duration("timeout", WebhookConfig.DEFAULT_TIMEOUT);
    if (timeout.isZero()) {
      v.error("timeout", "webhook timeout must be positive, got 0s");
    }
    List<RelabelConfig> relabel =
        RelabelMapping.list(
            v, "alert_relabel_configs", "empty or null webhook alert relabeling rule");
    HttpClientConfig http = HttpMapping.read(v, HttpClientConfig.DEFAULT);
    v.finish();
    if (url == null || timeout.isZero()) {
      return null;
    }
    return new WebhookConfig(url, timeout, relabel, http);
  }

  private static AlertmanagerConfig alertmanager(MapView v) {
    String scheme = v.string("scheme", "http");
    if (!scheme.equals("http") && !scheme.equals("https")) {
      v.error("scheme", "scheme must be http or https, got " + Checks.quote(scheme));
    }
    String api = v.string("api_version", AlertmanagerConfig.API_V2);
    if (!api.equals(AlertmanagerConfig.API_V2)) {
      v.error("api_version", "expected Alertmanager api version to be one of [v2] but got " + api);
    }
    HttpClientConfig http = HttpMapping.read(v, HttpClientConfig.DEFAULT);
    boolean httpAuth =
        http.basicAuth().isPresent()
            || http.authorization().isPresent()
            || http.oauth2().isPresent();
    if (v.has("sigv4")) {
      if (httpAuth) {
        v.error(
            "sigv4",
            "at most one of basic_auth, authorization, oauth2, & sigv4 must be configured");
      } else {
        v.warn("sigv4", "sigv4 is not supported by infermon; alerts are sent unsigned");
      }
    }
    List<RelabelConfig> relabel =
        RelabelMapping.list(
            v, "relabel_configs", "empty or null Alertmanager target relabeling rule");
    List<RelabelConfig> alertRelabel =
        RelabelMapping.list(
            v, "alert_relabel_configs", "empty or null Alertmanager alert relabeling rule");
    AlertmanagerConfig result =
        new AlertmanagerConfig(
            scheme,
            v.string("path_prefix", ""),
            v.duration("timeout", AlertmanagerConfig.DEFAULT_TIMEOUT),
            api,
            relabel,
            alertRelabel,
            ScrapeMapping.staticConfigs(v, relabel.isEmpty()),
            ScrapeMapping.fileSdConfigs(v),
            ScrapeMapping.kubernetesSdConfigs(v),
            http,
            ScrapeMapping.unsupportedSd(v));
    v.finish();
    return result;
  }

  static List<RemoteWriteConfig> remoteWrites(MapView root) {
    Reader r = root.reader();
    List<String> names = new ArrayList<>();
    return root.list(
        "remote_write",
        (node, path) -> {
          if (isNull(node)) {
            r.error(node.pos(), path, "empty or null remote write config section");
            return null;
          }
          MapView v = r.view(node, node.pos(), path, REMOTE_WRITE);
          RemoteWriteConfig c = remoteWrite(v);
          if (c != null && !c.name().isEmpty()) {
            if (names.contains(c.name())) {
              v.error(
                  "name",
                  "found multiple remote write configs with job name " + Checks.quote(c.name()));
            }
            names.add(c.name());
          }
          return c;
        });
  }

  private static RemoteWriteConfig remoteWrite(MapView v) {
    Url url = requiredUrl(v, "url for remote_write is empty");
    List<RelabelConfig> relabel =
        RelabelMapping.list(
            v, "write_relabel_configs", "empty or null relabeling rule in remote write config");
    Map<String, String> headers = headers(v);
    String message = v.string("protobuf_message", RemoteWriteConfig.WRITE_V1);
    if (message.equals("io.prometheus.write.v2.Request")) {
      v.warn(
          "protobuf_message",
          "remote write 2.0 is not supported by infermon yet; sending "
              + RemoteWriteConfig.WRITE_V1);
    } else if (!message.equals(RemoteWriteConfig.WRITE_V1)) {
      v.error(
          "protobuf_message",
          "invalid protobuf_message value: unknown remote write protobuf message "
              + message
              + ", supported: prometheus.WriteRequest, io.prometheus.write.v2.Request");
    }
    HttpClientConfig http = HttpMapping.read(v, HttpClientConfig.REMOTE_WRITE_DEFAULT);
    List<String> auth = new ArrayList<>();
    http.basicAuth().ifPresent(x -> auth.add("basic_auth"));
    http.authorization().ifPresent(x -> auth.add("authorization"));
    http.oauth2().ifPresent(x -> auth.add("oauth2"));
    for (String k : List.of("sigv4", "azuread", "google_iam")) {
      if (v.has(k)) {
        auth.add(k);
      }
    }
    if (auth.size() > 1) {
      v.error(
          "at most one of basic_auth, authorization, oauth2, sigv4, azuread or google_iam must be"
              + " configured. Currently configured: "
              + auth);
    } else {
      for (String k : List.of("sigv4", "azuread", "google_iam")) {
        if (v.has(k)) {
          v.warn(k, k + " is not supported by infermon; requests are sent without it");
        }
      }
    }
    MapView q = v.map("queue_config", QUEUE);
    QueueConfig d = QueueConfig.DEFAULT;
    QueueConfig queue =
        new QueueConfig(
            q.intCount("capacity", d.capacity()),
            q.intCount("max_shards", d.maxShards()),
            q.intCount("min_shards", d.minShards()),
            q.intCount("max_samples_per_send", d.maxSamplesPerSend()),
            q.duration("batch_send_deadline", d.batchSendDeadline()),
            q.duration("min_backoff", d.minBackoff()),
            q.duration("max_backoff", d.maxBackoff()),
            q.bool("retry_on_http_429", d.retryOnHttp429()),
            q.duration("sample_age_limit", d.sampleAgeLimit()));
    q.finish();
    MapView m = v.map("metadata_config", METADATA);
    MetadataConfig md = MetadataConfig.DEFAULT;
    MetadataConfig metadata =
        new MetadataConfig(
            m.bool("send", md.send()),
            m.duration("send_interval", md.sendInterval()),
            m.intCount("max_samples_per_send", md.maxSamplesPerSend()));
    m.finish();
    RemoteWriteConfig result =
        new RemoteWriteConfig(
            url,
            v.string("name", ""),
            v.duration("remote_timeout", RemoteWriteConfig.DEFAULT_REMOTE_TIMEOUT),
            headers,
            relabel,
            v.bool("send_exemplars", false),
            v.bool("send_native_histograms", false),
            v.bool("round_robin_dns", false),
            message,
            queue,
            metadata,
            http);
    v.finish();
    return url == null ? null : result;
  }

  static List<RemoteReadConfig> remoteReads(MapView root) {
    Reader r = root.reader();
    List<String> names = new ArrayList<>();
    return root.list(
        "remote_read",
        (node, path) -> {
          if (isNull(node)) {
            r.error(node.pos(), path, "empty or null remote read config section");
            return null;
          }
          MapView v = r.view(node, node.pos(), path, REMOTE_READ);
          Url url = requiredUrl(v, "url for remote_read is empty");
          String name = v.string("name", "");
          if (!name.isEmpty()) {
            if (names.contains(name)) {
              v.error(
                  "name", "found multiple remote read configs with job name " + Checks.quote(name));
            }
            names.add(name);
          }
          RemoteReadConfig c =
              new RemoteReadConfig(
                  url,
                  name,
                  v.duration("remote_timeout", RemoteReadConfig.DEFAULT_REMOTE_TIMEOUT),
                  v.count("chunked_read_limit", RemoteReadConfig.DEFAULT_CHUNKED_READ_LIMIT),
                  headers(v),
                  v.bool("read_recent", false),
                  v.stringMap("required_matchers"),
                  v.bool("filter_external_labels", true),
                  HttpMapping.read(v, HttpClientConfig.DEFAULT));
          v.finish();
          return url == null ? null : c;
        });
  }

  static TracingConfig tracing(MapView t) {
    String clientType = t.string("client_type", "grpc");
    if (!clientType.equals("grpc") && !clientType.equals("http")) {
      t.error(
          "client_type",
          "expected tracing client type to be to be http or grpc, but got " + clientType);
    }
    String endpoint = t.string("endpoint", "");
    if (endpoint.isEmpty()) {
      t.error("tracing endpoint must be set");
    }
    String compression = t.string("compression", "");
    if (!compression.isEmpty() && !compression.equals("gzip")) {
      t.error(
          "compression",
          "invalid compression type " + compression + " provided, valid options: gzip");
    }
    TracingConfig c =
        new TracingConfig(
            clientType,
            endpoint,
            t.number("sampling_fraction", 0),
            t.bool("insecure", false),
            HttpMapping.tls(t.map("tls_config", TLS)),
            t.stringMap("headers"),
            compression,
            t.duration("timeout", java.time.Duration.ZERO));
    t.warn("endpoint", "tracing is not supported by infermon yet; no traces are exported");
    t.finish();
    return c;
  }

  private static Url requiredUrl(MapView v, String emptyMessage) {
    if (!v.has("url")) {
      v.error(emptyMessage);
      return null;
    }
    return Checks.url(v, "url");
  }

  private static Map<String, String> headers(MapView v) {
    Map<String, String> headers = v.stringMap("headers");
    for (String h : headers.keySet()) {
      String lower = h.toLowerCase(Locale.ROOT);
      if (lower.equals("authorization")) {
        v.error(
            "headers",
            "authorization header must be changed via the basic_auth, authorization, oauth2,"
                + " sigv4, azuread or google_iam parameter");
      } else if (RESERVED_HEADERS.contains(lower)) {
        v.error("headers", h + " is a reserved header. It must not be changed");
      }
    }
    return headers;
  }

  private static boolean isNull(Node n) {
    return n instanceof Node.ScalarNode && ((Node.ScalarNode) n).type() == Node.ScalarType.NULL;
  }
}
