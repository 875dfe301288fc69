package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Discovered labels to targets, as Prometheus's PopulateLabels. */
class TargetBuilderTest {
  private static final ScrapeConfig CFG =
      Configs.one(
          """
          - job_name: vllm
            scrape_interval: 15s
            scrape_timeout: 10s
            params:
              format: [prometheus]
            relabel_configs:
              - source_labels: [__meta_kubernetes_pod_label_app]
                target_label: app
          """);

  record Case(String name, Labels discovered, String url, Labels labels, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "defaults and meta labels",
            Labels.of("__address__", "10.0.0.1:8000", "__meta_kubernetes_pod_label_app", "vllm"),
            "http://10.0.0.1:8000/metrics?format=prometheus",
            Labels.of("app", "vllm", "instance", "10.0.0.1:8000", "job", "vllm"),
            null),
        new Case(
            "default port for http",
            Labels.of("__address__", "host"),
            "http://host:80/metrics?format=prometheus",
            Labels.of("instance", "host:80", "job", "vllm"),
            null),
        new Case(
            "target's own job, instance and path win",
            Labels.of(
                "__address__",
                "h:1",
                "job",
                "mine",
                "instance",
                "pod-a",
                "__metrics_path__",
                "/m",
                "__scheme__",
                "https"),
            "https://h:1/m?format=prometheus",
            Labels.of("instance", "pod-a", "job", "mine"),
            null),
        new Case("no address", Labels.of("x", "y"), null, null, "no address"),
        new Case(
            "timeout above interval",
            Labels.of("__address__", "h:1", "__scrape_interval__", "5s"),
            null,
            null,
            "scrape timeout cannot be greater than scrape interval (\"10s\" > \"5s\")"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void populatesLabels(Case c) {
    TargetBuilder.Result r = TargetBuilder.build("vllm", c.discovered(), CFG);
    assertThat(r.error()).isEqualTo(c.error());
    if (c.error() == null) {
      assertThat(r.target().url()).isEqualTo(c.url());
      assertThat(r.target().labels()).isEqualTo(c.labels());
    }
  }

  @Test
  void perTargetIntervalFromLabels() {
    Target t =
        TargetBuilder.build(
                "vllm",
                Labels.of(
                    "__address__", "h:1", "__scrape_interval__", "1m", "__scrape_timeout__", "30s"),
                CFG)
            .target();
    assertThat(t.interval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(t.timeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void offsetsAreStableAndWithinTheInterval() {
    Target a = TargetBuilder.build("vllm", Labels.of("__address__", "a:1"), CFG).target();
    Target b = TargetBuilder.build("vllm", Labels.of("__address__", "b:1"), CFG).target();
    long iv = Duration.ofSeconds(15).toNanos();
    long now = 1_700_000_000_123_456_789L;
    for (Target t : new Target[] {a, b}) {
      long off = t.offsetNanos(now, 0);
      assertThat(off).isBetween(0L, iv);
      // The phase (now + offset) mod interval is the same whenever it is computed.
      assertThat(Math.floorMod(now + off, iv))
          .isEqualTo(Math.floorMod(now + 7_777_777L + t.offsetNanos(now + 7_777_777L, 0), iv));
    }
    assertThat(a.offsetNanos(now, 0)).isNotEqualTo(b.offsetNanos(now, 0));
  }

  @Test
  void timeoutHeaderFormatsLikeGo() {
    assertThat(HttpScraper.seconds(Duration.ofSeconds(10))).isEqualTo("10");
    assertThat(HttpScraper.seconds(Duration.ofMillis(500))).isEqualTo("0.5");
    assertThat(HttpScraper.seconds(Duration.ofMillis(1250))).isEqualTo("1.25");
  }
}
