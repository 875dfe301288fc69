package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.scrape.StaticConfig;
import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ScrapeConfig#defaults} is exactly what the loader builds for {@code - job_name: x} with
 * nothing else set, under each of these {@code global} sections.
 */
class ScrapeConfigDefaultsTest {
  static Stream<String> globals() {
    return Stream.of(
        "{}",
        "{scrape_interval: 15s}",
        "{scrape_interval: 5s, scrape_timeout: 3s}",
        "{scrape_interval: 2s}",
        "{sample_limit: 1000, label_limit: 30, label_name_length_limit: 100,"
            + " label_value_length_limit: 200, target_limit: 5, body_size_limit: 10MB,"
            + " keep_dropped_targets: 7}",
        "{scrape_native_histograms: true}",
        "{scrape_protocols: [PrometheusText0.0.4]}",
        "{metric_name_validation_scheme: legacy, metric_name_escaping_scheme: underscores}",
        "{external_labels: {cluster: a}, evaluation_interval: 30s}",
        "{scrape_sharding: {replicas: 3, index: 1}}");
  }

  @ParameterizedTest
  @MethodSource("globals")
  void equalsWhatTheLoaderBuildsForAnEmptyJob(String global) throws ConfigException {
    Config c =
        ConfigLoader.create()
            .parse("global: " + global + "\nscrape_configs:\n  - job_name: inference\n", "t.yml");

    assertThat(ScrapeConfig.defaults("inference", c.global())).isEqualTo(c.scrapeConfigs().get(0));
  }

  @Test
  void withersChangeOnlyTheirFields() throws ConfigException {
    Config c =
        ConfigLoader.create()
            .parse(
                "global: {scrape_interval: 15s}\n"
                    + "scrape_configs:\n"
                    + "  - job_name: dcgm\n"
                    + "    scrape_interval: 30s\n"
                    + "    scrape_timeout: 20s\n"
                    + "    static_configs:\n"
                    + "      - targets: ['127.0.0.1:9400']\n"
                    + "        labels: {backend: dcgm}\n",
                "t.yml");
    ScrapeConfig built =
        ScrapeConfig.defaults("dcgm", c.global())
            .withIntervals(Duration.ofSeconds(30), Duration.ofSeconds(20))
            .withStaticConfigs(
                List.of(new StaticConfig(List.of("127.0.0.1:9400"), Labels.of("backend", "dcgm"))));

    assertThat(built).isEqualTo(c.scrapeConfigs().get(0));
  }

  @Test
  void refusesWhatTheLoaderWouldRefuse() throws ConfigException {
    ScrapeConfig d =
        ScrapeConfig.defaults("x", ConfigLoader.create().parse("{}", "t.yml").global());

    assertThatThrownBy(() -> ScrapeConfig.defaults("", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jobName");
    assertThatThrownBy(() -> d.withIntervals(Duration.ofSeconds(10), Duration.ofSeconds(11)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("greater than scrape interval");
    assertThatThrownBy(() -> d.withIntervals(Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("interval must be positive");
  }
}
