package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.infermon.config.yaml.Problem;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invalid files and the exact problems reported: position, key path and message. Messages that
 * Prometheus also produces use Prometheus's wording.
 */
class BadConfigsTest {
  record Case(String name, String yaml, List<String> problems) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case bad(String name, String yaml, String... problems) {
    return new Case(name, yaml, List.of(problems));
  }

  static Stream<Case> cases() {
    return Stream.of(
        bad(
            "misspelt top-level key",
            """
            scrape_config:
            - job_name: a
            """,
            "infermon.yml:1:1: scrape_config: unknown key; did you mean scrape_configs?"),
        bad(
            "unknown top-level key without a close match",
            "frobnicate: 1\n",
            "infermon.yml:1:1: frobnicate: unknown key"),
        bad(
            "misspelt key in global",
            """
            global:
              scrape_intervl: 15s
            """,
            "infermon.yml:2:3: global.scrape_intervl: unknown key; did you mean scrape_interval?"),
        bad(
            "misspelt key three levels down",
            """
            scrape_configs:
            - job_name: a
            - job_name: b
            - job_name: c
              kubernetes_sd_configs:
              - role: pod
                namespace:
                  names: [x]
            """,
            "infermon.yml:7:5: scrape_configs[2].kubernetes_sd_configs[0].namespace: unknown key;"
                + " did you mean namespaces?"),
        bad(
            "misspelt key in a relabel config",
            """
            scrape_configs:
            - job_name: a
              relabel_configs:
              - sourcelabels: [a]
                target_label: b
            """,
            "infermon.yml:4:5: scrape_configs[0].relabel_configs[0].sourcelabels: unknown key;"
                + " did you mean source_labels?"),
        bad(
            "misspelt key in infermon's own section",
            """
            inference:
              enabled: true
              port_nmae: metrics
            """,
            "infermon.yml:3:3: inference.port_nmae: unknown key; did you mean port_name?"),
        bad(
            "misspelt key in basic_auth",
            """
            scrape_configs:
            - job_name: a
              basic_auth:
                username: u
                pasword: p
            """,
            "infermon.yml:5:5: scrape_configs[0].basic_auth.pasword: unknown key; did you mean"
                + " password?"),
        bad(
            "duration given as a list",
            """
            global:
              scrape_interval: [15s]
            """,
            "infermon.yml:2:20: global.scrape_interval: expected a duration, got a list"),
        bad(
            "boolean given as a string",
            """
            scrape_configs:
            - job_name: a
              honor_labels: "yes"
            """,
            "infermon.yml:3:17: scrape_configs[0].honor_labels: expected a boolean (true or false),"
                + " got the string \"yes\""),
        bad(
            "negative limit",
            """
            scrape_configs:
            - job_name: a
              sample_limit: -1
            """,
            "infermon.yml:3:17: scrape_configs[0].sample_limit: expected a non-negative integer,"
                + " got the number -1"),
        bad(
            "mapping where a list belongs",
            """
            scrape_configs:
              job_name: a
            """,
            "infermon.yml:2:3: scrape_configs: expected a list, got a mapping"),
        bad(
            "duration with an unknown unit",
            """
            global:
              scrape_interval: 15x
            """,
            "infermon.yml:2:20: global.scrape_interval: unknown unit \"x\" in duration \"15x\""),
        bad(
            "duration with units out of order",
            """
            global:
              evaluation_interval: 1m1h
            """,
            "infermon.yml:2:24: global.evaluation_interval: not a valid duration string:"
                + " \"1m1h\""),
        bad(
            "bad regex in a relabel config",
            """
            scrape_configs:
            - job_name: a
              metric_relabel_configs:
              - source_labels: [__name__]
                regex: "(abc"
                action: drop
            """,
            "infermon.yml:5:12: scrape_configs[0].metric_relabel_configs[0].regex: error parsing"
                + " regexp: Unclosed group: `(abc`"),
        bad(
            "Perl syntax that RE2 rejects",
            """
            remote_write:
            - url: http://x/api/v1/write
              write_relabel_configs:
              - source_labels: [__name__]
                regex: "(?!up).*"
                action: keep
            """,
            "infermon.yml:5:12: remote_write[0].write_relabel_configs[0].regex: error parsing"
                + " regexp: invalid or unsupported Perl syntax: `(?!`"),
        bad(
            "invalid relabel action",
            """
            scrape_configs:
            - job_name: a
              relabel_configs:
              - action: replce
                target_label: b
            """,
            "infermon.yml:4:13: scrape_configs[0].relabel_configs[0].action: unknown relabel action"
                + " \"replce\""),
        bad(
            "hashmod without modulus",
            """
            scrape_configs:
            - job_name: a
              relabel_configs:
              - source_labels: [__address__]
                target_label: __tmp_hash
                action: hashmod
            """,
            "infermon.yml:4:5: scrape_configs[0].relabel_configs[0]: relabel configuration for"
                + " hashmod requires non-zero modulus"),
        bad(
            "labeldrop with source_labels",
            """
            scrape_configs:
            - job_name: a
              metric_relabel_configs:
              - action: labeldrop
                source_labels: [a]
                regex: b
            """,
            "infermon.yml:4:5: scrape_configs[0].metric_relabel_configs[0]: labeldrop action"
                + " requires only 'regex', and no other fields"),
        bad(
            "null relabel rule",
            """
            scrape_configs:
            - job_name: a
              relabel_configs:
              -
            """,
            "infermon.yml:4:4: scrape_configs[0].relabel_configs[0]: empty or null target"
                + " relabeling rule in scrape config"),
        bad(
            "missing job_name",
            """
            scrape_configs:
            - static_configs:
              - targets: [localhost:9090]
            """,
            "infermon.yml:2:3: scrape_configs[0]: job_name is empty"),
        bad(
            "null scrape config",
            """
            scrape_configs:
            -
            """,
            "infermon.yml:2:2: scrape_configs[0]: empty or null scrape config section"),
        bad(
            "duplicate job_name",
            """
            scrape_configs:
            - job_name: node
            - job_name: node
            """,
            "infermon.yml:3:13: scrape_configs[1].job_name: found multiple scrape configs with job"
                + " name \"node\""),
        bad(
            "scrape_timeout greater than scrape_interval",
            """
            scrape_configs:
            - job_name: a
              scrape_interval: 5s
              scrape_timeout: 10s
            """,
            "infermon.yml:4:19: scrape_configs[0].scrape_timeout: scrape timeout greater than"
                + " scrape interval for scrape config with job name \"a\""),
        bad(
            "global scrape_timeout greater than scrape_interval",
            """
            global:
              scrape_interval: 5s
              scrape_timeout: 6s
            """,
            "infermon.yml:3:19: global.scrape_timeout: global scrape timeout greater than scrape"
                + " interval"),
        bad(
            "remote_write URL without a scheme",
            """
            remote_write:
            - url: remote.example.com/api/v1/write
            """,
            "infermon.yml:2:8: remote_write[0].url: invalid URL"
                + " \"remote.example.com/api/v1/write\": scheme must be http or https"),
        bad(
            "remote_write URL that does not parse",
            """
            remote_write:
            - url: "http://[::1/write"
            """,
            "infermon.yml:2:8: remote_write[0].url: invalid URL \"http://[::1/write\": Expected"
                + " closing bracket for IPv6 address"),
        bad(
            "remote_write without url",
            """
            remote_write:
            - name: a
            """,
            "infermon.yml:2:3: remote_write[0]: url for remote_write is empty"),
        bad(
            "duplicate remote_write name",
            """
            remote_write:
            - url: http://a/w
              name: x
            - url: http://b/w
              name: x
            """,
            "infermon.yml:5:9: remote_write[1].name: found multiple remote write configs with job"
                + " name \"x\""),
        bad(
            "reserved header in remote_write",
            """
            remote_write:
            - url: http://a/w
              headers:
                User-Agent: me
            """,
            "infermon.yml:4:5: remote_write[0].headers: User-Agent is a reserved header. It must not"
                + " be changed"),
        bad(
            "both bearer_token and bearer_token_file",
            """
            scrape_configs:
            - job_name: a
              bearer_token: t
              bearer_token_file: /t
            """,
            "infermon.yml:4:22: scrape_configs[0].bearer_token_file: at most one of bearer_token &"
                + " bearer_token_file must be configured"),
        bad(
            "basic_auth together with bearer_token",
            """
            scrape_configs:
            - job_name: a
              basic_auth: {username: u, password: p}
              bearer_token: t
            """,
            "infermon.yml:4:17: scrape_configs[0].bearer_token: at most one of basic_auth, oauth2,"
                + " bearer_token & bearer_token_file must be configured"),
        bad(
            "authorization of type basic",
            """
            scrape_configs:
            - job_name: a
              authorization:
                type: Basic
                credentials: x
            """,
            "infermon.yml:4:11: scrape_configs[0].authorization.type: authorization type cannot be"
                + " set to \"basic\", use \"basic_auth\" instead"),
        bad(
            "unknown TLS version",
            """
            scrape_configs:
            - job_name: a
              tls_config:
                min_version: TLS9
            """,
            "infermon.yml:4:18: scrape_configs[0].tls_config.min_version: unknown TLS version:"
                + " TLS9"),
        bad(
            "invalid label name in external_labels",
            """
            global:
              external_labels:
                cluster-name: prod
            """,
            "infermon.yml:3:5: global.external_labels: \"cluster-name\" is not a valid label name"),
        bad(
            "invalid label name in static labels",
            """
            scrape_configs:
            - job_name: a
              static_configs:
              - targets: [a:1]
                labels: {0zone: x}
            """,
            "infermon.yml:5:13: scrape_configs[0].static_configs[0].labels: \"0zone\" is not a"
                + " valid label name"),
        bad(
            "URL as a static target",
            """
            scrape_configs:
            - job_name: a
              static_configs:
              - targets: [http://host:9100/metrics]
            """,
            "infermon.yml:4:14: scrape_configs[0].static_configs[0].targets:"
                + " \"http://host:9100/metrics\" is not a valid hostname"),
        bad(
            "invalid rule file glob",
            """
            rule_files: ["rules/*/x.yml"]
            """,
            "infermon.yml:1:13: rule_files: invalid rule file path \"rules/*/x.yml\""),
        bad(
            "file_sd file without a known extension",
            """
            scrape_configs:
            - job_name: a
              file_sd_configs:
              - files: [targets.txt]
            """,
            "infermon.yml:4:12: scrape_configs[0].file_sd_configs[0].files: path name"
                + " \"targets.txt\" is not valid for file discovery"),
        bad(
            "unknown Kubernetes role",
            """
            scrape_configs:
            - job_name: a
              kubernetes_sd_configs:
              - role: pods
            """,
            "infermon.yml:4:11: scrape_configs[0].kubernetes_sd_configs[0].role: unknown Kubernetes"
                + " SD role \"pods\""),
        bad(
            "Kubernetes client settings without api_server",
            """
            scrape_configs:
            - job_name: a
              kubernetes_sd_configs:
              - role: pod
                bearer_token: t
            """,
            "infermon.yml:4:5: scrape_configs[0].kubernetes_sd_configs[0]: to use custom HTTP client"
                + " configuration please provide the 'api_server' URL explicitly"),
        bad(
            "selector of another role",
            """
            scrape_configs:
            - job_name: a
              kubernetes_sd_configs:
              - role: node
                selectors:
                - role: pod
                  label: app=x
            """,
            "infermon.yml:6:13: scrape_configs[0].kubernetes_sd_configs[0].selectors[0].role: node"
                + " role supports only node selectors"),
        bad(
            "unknown scrape protocol",
            """
            global:
              scrape_protocols: [PrometheusText0.0.4, OpenMetrics]
            """,
            "infermon.yml:2:21: global.scrape_protocols: scrape_protocols: unknown scrape protocol"
                + " OpenMetrics, supported: [OpenMetricsText0.0.1, OpenMetricsText1.0.0,"
                + " PrometheusProto, PrometheusText0.0.4, PrometheusText1.0.0] for global config"),
        bad(
            "Alertmanager API v1",
            """
            alerting:
              alertmanagers:
              - api_version: v1
                static_configs: [{targets: [am:9093]}]
            """,
            "infermon.yml:3:18: alerting.alertmanagers[0].api_version: expected Alertmanager api"
                + " version to be one of [v2] but got v1"),
        bad(
            "duplicate key",
            """
            global:
              scrape_interval: 15s
              scrape_interval: 30s
            """,
            "infermon.yml:3:3: scrape_interval: duplicate key; already defined at line 2"),
        bad(
            "YAML syntax error",
            """
            global:
              scrape_interval: 15s
             evaluation_interval: 30s
            """,
            "infermon.yml:3:2: invalid YAML: while parsing a block mapping: expected <block end>, but"
                + " found '<block mapping start>'"),
        bad(
            "unknown storage mode",
            """
            storage:
              mode: cluster
            """,
            "infermon.yml:2:9: storage.mode: unknown storage mode \"cluster\", expected one of"
                + " embedded, remote, agent"),
        bad(
            "remote mode without a query URL",
            """
            storage:
              mode: remote
            """,
            "infermon.yml:2:9: storage.mode: storage.mode remote needs storage.remote.query_url"),
        bad(
            "a future window that refuses every sample",
            """
            storage:
              tsdb:
                too_far_in_future_time_window: 0s
            """,
            "infermon.yml:3:36: storage.tsdb.too_far_in_future_time_window:"
                + " storage.tsdb.too_far_in_future_time_window must be positive: later samples"
                + " would all be refused"),
        bad(
            "rule files in agent mode",
            """
            storage:
              mode: agent
            rule_files: [a.yml]
            """,
            "infermon.yml:3:13: rule_files: field rule_files is not allowed in agent mode"),
        bad(
            "invalid Kubernetes label selector",
            """
            inference:
              label_selector: "app in (a,b"
            """,
            "infermon.yml:2:19: inference.label_selector: invalid label selector \"app in (a,b\":"
                + " invalid key \"app in (a,b\""),
        bad(
            "DCGM port out of range",
            """
            inference:
              dcgm:
                port: 70000
            """,
            "infermon.yml:3:11: inference.dcgm.port: port must be between 1 and 65535, got 70000"),
        bad(
            "AMD exporter port out of range",
            """
            inference:
              amdgpu:
                port: 0
            """,
            "infermon.yml:3:11: inference.amdgpu.port: port must be between 1 and 65535, got 0"),
        bad(
            "unknown key in the AMD exporter block",
            """
            inference:
              amdgpu:
                prot: 5000
            """,
            "infermon.yml:3:5: inference.amdgpu.prot: unknown key; did you mean port?"),
        bad(
            "both forms of the workload label",
            """
            inference:
              workload_label: a.io/w
              workload_labels: [b.io/w]
            """,
            "infermon.yml:3:20: inference.workload_labels: set workload_label or workload_labels,"
                + " not both"),
        bad(
            "a backend's metrics path not absolute",
            """
            inference:
              metrics_paths: {trtllm: prometheus/metrics}
            """,
            "infermon.yml:2:18: inference.metrics_paths: path \"prometheus/metrics\" of backend"
                + " \"trtllm\" must start with /"),
        bad(
            "a backend's metrics port out of range",
            """
            inference:
              metrics_ports: {triton: 80020}
            """,
            "infermon.yml:2:18: inference.metrics_ports: backend \"triton\": port \"80020\" is not"
                + " in 1-65535"),
        bad(
            "a backend's metrics port that is no port name",
            """
            inference:
              metrics_ports: {triton: Metrics_Port}
            """,
            "infermon.yml:2:18: inference.metrics_ports: backend \"triton\": \"Metrics_Port\" is"
                + " neither a port number nor a container port name (at most 15 lowercase letters,"
                + " digits and single inner hyphens, with a letter)"),
        bad(
            "a marker that is no label key",
            """
            inference:
              backend_by_label: {"not a key": dynamo}
            """,
            "infermon.yml:2:21: inference.backend_by_label: \"not a key\" is not a valid"
                + " Kubernetes label key (or key=value)"),
        bad(
            "a marker whose value is no label value",
            """
            inference:
              backend_by_label: {"nvidia.com/dynamo-component-type=a b": dynamo}
            """,
            "infermon.yml:2:21: inference.backend_by_label:"
                + " \"nvidia.com/dynamo-component-type=a b\": \"a b\" is not a valid label value"),
        bad(
            "a port by label whose matcher is no label key",
            """
            inference:
              metrics_ports_by_label: {"not a key": system}
            """,
            "infermon.yml:2:27: inference.metrics_ports_by_label: \"not a key\" is not a valid"
                + " Kubernetes label key (or key=value)"),
        bad(
            "a port by label that is no port",
            """
            inference:
              metrics_ports_by_label: {nvidia.com/dynamo-component-type: 0}
            """,
            "infermon.yml:2:27: inference.metrics_ports_by_label: pods with"
                + " \"nvidia.com/dynamo-component-type\": port \"0\" is not in 1-65535"),
        bad(
            "TTFT quantile out of range",
            """
            llm:
              alerts:
                ttft_quantile: 1.5
            """,
            "infermon.yml:3:20: llm.alerts.ttft_quantile: must be between 0 and 1 (exclusive), got"
                + " 1.5"),
        bad(
            "failure ratio out of range",
            """
            llm:
              alerts:
                failure_ratio: 5
            """,
            "infermon.yml:3:20: llm.alerts.failure_ratio: must be between 0 and 1 (exclusive), got"
                + " 5.0"),
        bad(
            "negative minimum of failed requests",
            """
            llm:
              alerts:
                failure_min_count: -1
            """,
            "infermon.yml:3:24: llm.alerts.failure_min_count: expected a non-negative integer,"
                + " got the number -1"),
        bad(
            "plain-text password for a web user",
            """
            web:
              auth:
                basic_users:
                  admin: hunter2
            """,
            "infermon.yml:4:7: web.auth.basic_users: password of user \"admin\" must be a bcrypt"
                + " hash ($2y$...) or sha256:<64 hex digits>; plain-text passwords are not accepted"),
        bad(
            "TLS certificate without key",
            """
            web:
              tls:
                cert_file: /etc/infermon/tls.crt
            """,
            "infermon.yml:3:16: web.tls.cert_file: cert_file and key_file must be set together"),
        bad(
            "listen address without a port",
            """
            web:
              listen_address: localhost
            """,
            "infermon.yml:2:19: web.listen_address: invalid listen address \"localhost\": expected"
                + " host:port"),
        bad(
            "every problem of a file is reported, in file order",
            """
            global:
              scrape_interval: 1y1y
            scrape_configs:
            - job_name: a
              scrape_timout: 5s
            web:
              listen_adress: :9090
            """,
            "infermon.yml:2:20: global.scrape_interval: not a valid duration string: \"1y1y\"",
            "infermon.yml:5:3: scrape_configs[0].scrape_timout: unknown key; did you mean"
                + " scrape_timeout?",
            "infermon.yml:7:3: web.listen_adress: unknown key; did you mean listen_address?"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reportsEveryProblemWithPositionAndPath(Case c) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> Fixtures.parse(c.yaml()));
    assertThat(e).as("no problem reported for:%n%s", c.yaml()).isNotNull();
    assertThat(e.problems()).extracting(Problem::toString).containsExactlyElementsOf(c.problems());
  }

  @Test
  void theMessageListsEveryProblemOnItsOwnLine() {
    assertThatThrownBy(
            () ->
                Fixtures.parse(
                    """
                    global:
                      scrape_interval: 1x
                    bogus: 1
                    """))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "invalid configuration infermon.yml (2 problems):\n"
                + "  infermon.yml:2:20: global.scrape_interval: unknown unit \"x\" in duration \"1x\"\n"
                + "  infermon.yml:3:1: bogus: unknown key");
  }

  @Test
  void aMissingFileIsAProblemToo() {
    assertThatThrownBy(
            () -> ConfigLoader.create().load(java.nio.file.Path.of("/nonexistent/infermon.yml")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("/nonexistent/infermon.yml: cannot read file:");
  }
}
