package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.remote.RemoteWriteConfig;
import dev.infermon.config.scrape.Authorization;
import dev.infermon.config.scrape.GlobalConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.KubernetesRole;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.value.Secret;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.Action;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Real Prometheus files load unchanged, to the values Prometheus would resolve. */
class GoodConfigsTest {
  record Case(String file, Consumer<ConfigResult> check) {
    @Override
    public String toString() {
      return file;
    }
  }

  static Stream<Case> files() {
    return Stream.of(
        new Case(
            "testdata/prometheus/conf.good.yml",
            r -> {
              Config c = r.config();
              assertThat(c.global().scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
              assertThat(c.global().evaluationInterval()).isEqualTo(Duration.ofSeconds(30));
              assertThat(c.global().scrapeTimeout()).isEqualTo(Duration.ofSeconds(10));
              assertThat(c.global().externalLabels())
                  .isEqualTo(Labels.of("monitor", "codelab", "foo", "bar"));
              assertThat(c.ruleFiles()).containsExactly("first.rules", "my/*.rules");
              assertThat(c.remoteWrite())
                  .extracting(RemoteWriteConfig::name)
                  .containsExactly("drop_expensive", "rw_tls");
              assertThat(c.remoteWrite().get(0).url().uri())
                  .isEqualTo(URI.create("http://remote1/push"));
              assertThat(c.remoteWrite().get(0).httpClient().enableHttp2()).isFalse();
              assertThat(c.remoteRead()).hasSize(2);
              assertThat(c.remoteRead().get(1).requiredMatchers())
                  .isEqualTo(Map.of("job", "special"));
              assertThat(c.scrapeConfigs())
                  .extracting(ScrapeConfig::jobName)
                  .containsExactly(
                      "prometheus",
                      "service-x",
                      "service-y",
                      "service-z",
                      "service-kubernetes",
                      "service-kubernetes-namespaces",
                      "service-marathon",
                      "service-ec2",
                      "service-azure",
                      "service-nerve",
                      "0123service-xxx",
                      "badfederation",
                      "測試",
                      "service-triton",
                      "service-openstack");
              ScrapeConfig prom = c.scrapeConfigs().get(0);
              assertThat(prom.honorLabels()).isTrue();
              assertThat(prom.scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
              assertThat(prom.metricsPath()).isEqualTo("/metrics");
              assertThat(prom.fileSdConfigs()).hasSize(2);
              assertThat(prom.fileSdConfigs().get(0).refreshInterval())
                  .isEqualTo(Duration.ofMinutes(10));
              assertThat(prom.fileSdConfigs().get(1).refreshInterval())
                  .isEqualTo(Duration.ofMinutes(5));
              assertThat(prom.staticConfigs().get(0).labels())
                  .isEqualTo(Labels.of("my", "label", "your", "label"));
              assertThat(prom.relabelConfigs()).hasSize(4);
              assertThat(prom.relabelConfigs().get(0).replacement()).isEqualTo("foo-${1}");
              assertThat(prom.relabelConfigs().get(3).regex().source()).isEmpty();
              assertThat(prom.httpClient().authorization())
                  .contains(new Authorization("Bearer", Secret.NONE, "valid_token_file"));
              ScrapeConfig x = c.scrapeConfigs().get(1);
              assertThat(x.scrapeTimeout()).isEqualTo(Duration.ofSeconds(5));
              assertThat(x.sampleLimit()).isEqualTo(1000);
              assertThat(x.scheme()).isEqualTo("https");
              assertThat(x.httpClient().basicAuth().orElseThrow().password().reveal())
                  .isEqualTo("multiline\nmysecret\ntest");
              assertThat(x.relabelConfigs())
                  .extracting(rc -> rc.action())
                  .containsExactly(
                      Action.DROP,
                      Action.HASHMOD,
                      Action.KEEP,
                      Action.LABELMAP,
                      Action.LABELDROP,
                      Action.LABELKEEP);
              assertThat(x.unsupportedSdConfigs()).containsExactly("dns_sd_configs");
              assertThat(c.scrapeConfigs().get(4).kubernetesSdConfigs().get(0).role())
                  .isEqualTo(KubernetesRole.ENDPOINTS);
              assertThat(c.scrapeConfigs().get(11).honorTimestamps()).isFalse();
              assertThat(c.alerting().alertmanagers().get(0).scheme()).isEqualTo("https");
              assertThat(c.alerting().alertmanagers().get(0).staticConfigs().get(0).targets())
                  .hasSize(3);
              assertThat(r.warnings())
                  .extracting(p -> p.path())
                  .contains(
                      "scrape_configs[1].dns_sd_configs",
                      "scrape_configs[2].consul_sd_configs",
                      "remote_read");
            }),
        new Case(
            "testdata/prometheus/prometheus.yml",
            r -> {
              ScrapeConfig s = r.config().scrapeConfigs().get(0);
              assertThat(s.jobName()).isEqualTo("prometheus");
              assertThat(s.staticConfigs().get(0).labels())
                  .isEqualTo(Labels.of("label_name", "label value"));
              assertThat(r.config().alerting().alertmanagers()).hasSize(1);
              assertThat(r.config().ruleFiles()).isEmpty();
              assertThat(r.warnings()).isEmpty();
            }),
        new Case(
            "testdata/prometheus/prometheus-agent.yml",
            r ->
                assertThat(r.config().remoteWrite().get(0).queueConfig().capacity())
                    .isEqualTo(10_000)),
        new Case(
            "testdata/prometheus/prometheus-kubernetes.yml",
            r -> {
              List<ScrapeConfig> s = r.config().scrapeConfigs();
              assertThat(s).hasSize(7);
              assertThat(s.get(0).httpClient().tlsConfig().caFile())
                  .isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt");
              assertThat(s.get(4).params()).isEqualTo(Map.of("module", List.of("http_2xx")));
              assertThat(s.get(5).kubernetesSdConfigs().get(0).role())
                  .isEqualTo(KubernetesRole.INGRESS);
            }),
        new Case(
            "testdata/prometheus/debian-2.42-prometheus.yml",
            r -> {
              ScrapeConfig s = r.config().scrapeConfigs().get(0);
              assertThat(s.scrapeInterval()).isEqualTo(Duration.ofSeconds(5));
              assertThat(s.scrapeTimeout()).isEqualTo(Duration.ofSeconds(5));
              assertThat(r.config().scrapeConfigs().get(1).scrapeTimeout())
                  .isEqualTo(Duration.ofSeconds(10));
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void loadsUnchanged(Case c) throws ConfigException {
    c.check().accept(ConfigLoader.create().parseResult(Fixtures.resource(c.file()), c.file()));
  }

  @Test
  void anEmptyFileIsAllDefaults() throws ConfigException {
    Config c = Fixtures.parse("");
    assertThat(c.global()).isEqualTo(GlobalConfig.DEFAULT);
    assertThat(c.storage()).isEqualTo(StorageConfig.DEFAULT);
    assertThat(c.web()).isEqualTo(dev.infermon.config.app.WebConfig.DEFAULT);
    assertThat(c.ui()).isEqualTo(dev.infermon.config.app.UiConfig.DEFAULT);
    assertThat(c.llm()).isEqualTo(dev.infermon.config.app.LlmConfig.DEFAULT);
    assertThat(c.inference().enabled()).isFalse();
    assertThat(c.inference().labelSelector()).isEqualTo("alibabacloud.com/inference-workload");
    assertThat(c.inference().scrapeInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.scrapeConfigs()).isEmpty();
  }

  @Test
  void scrapeConfigsInheritGlobalsAndTimeoutIsCappedByInterval() throws ConfigException {
    Config c =
        Fixtures.parse(
            """
            global:
              scrape_interval: 5s
              sample_limit: 100
              body_size_limit: 10MB
            scrape_configs:
            - job_name: a
            - job_name: b
              sample_limit: 7
              scrape_interval: 1m30s
            """);
    ScrapeConfig a = c.scrapeConfigs().get(0);
    assertThat(c.global().scrapeTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(a.scrapeInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(a.scrapeTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(a.sampleLimit()).isEqualTo(100);
    assertThat(a.bodySizeLimit().bytes()).isEqualTo(10L << 20);
    assertThat(a.httpClient()).isEqualTo(HttpClientConfig.DEFAULT);
    ScrapeConfig b = c.scrapeConfigs().get(1);
    assertThat(b.sampleLimit()).isEqualTo(7);
    assertThat(b.scrapeInterval()).isEqualTo(Duration.ofSeconds(90));
    assertThat(b.scrapeTimeout()).isEqualTo(Duration.ofSeconds(5)); // min(global timeout, interval)
  }

  @Test
  void relativeFilesAreResolvedAgainstTheConfigDirectory(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file = dir.resolve("infermon.yml");
    java.nio.file.Files.writeString(
        file,
        """
        rule_files: [rules/*.yml, /abs/x.yml]
        scrape_configs:
        - job_name: a
          bearer_token_file: token
        """);
    Config c = ConfigLoader.create().load(file);
    assertThat(c.ruleFiles()).containsExactly(dir.resolve("rules/*.yml").toString(), "/abs/x.yml");
    assertThat(
            c.scrapeConfigs().get(0).httpClient().authorization().orElseThrow().credentialsFile())
        .isEqualTo(dir.resolve("token").toString());
  }
}
