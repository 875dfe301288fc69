package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.scrape.ScrapeSharding;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.Relabel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code global.scrape_sharding}: N replicas of one config each keep a stable 1/N of targets. */
class ScrapeShardingTest {
  private static Config load(String global, Map<String, String> env) throws ConfigException {
    String yaml =
        "global:\n"
            + global
            + "scrape_configs:\n"
            + "  - job_name: vllm\n"
            + "    relabel_configs:\n"
            + "      - target_label: team\n"
            + "        replacement: llm\n"
            + "    static_configs:\n"
            + "      - targets: ['a:8000']\n";
    return ConfigLoader.create().withEnv(env).parse(yaml, "test.yml");
  }

  @Test
  void shardingAppendsHashmodAndKeepAfterTheJobsOwnRules() throws Exception {
    Config c = load("  scrape_sharding:\n    replicas: 3\n    index: 2\n", Map.of());

    ScrapeSharding s = c.global().scrapeSharding();
    assertThat(s).isEqualTo(new ScrapeSharding(3, 2, List.of("__address__")));
    ScrapeConfig job = c.scrapeConfigs().get(0);
    assertThat(job.relabelConfigs()).hasSize(3);
    assertThat(job.relabelConfigs().get(0).targetLabel()).isEqualTo("team");
    assertThat(job.relabelConfigs().subList(1, 3)).isEqualTo(s.relabelRules());
  }

  @Test
  void withoutShardingNothingIsAdded() throws Exception {
    Config c = load("  scrape_interval: 15s\n", Map.of());
    assertThat(c.global().scrapeSharding()).isEqualTo(ScrapeSharding.NONE);
    assertThat(c.scrapeConfigs().get(0).relabelConfigs()).hasSize(1);
  }

  @Test
  void environmentVariablesSetTheReplicaSoOneFileServesAStatefulSet() throws Exception {
    Config c =
        load(
            "  scrape_sharding:\n    replicas: 2\n",
            Map.of("INFERMON_GLOBAL_SCRAPE_SHARDING_INDEX", "1"));
    assertThat(c.global().scrapeSharding().index()).isEqualTo(1);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "replicas: 2, index: 2 | index must be in [0, 1], got 2",
        "replicas: 0           | replicas must be at least 1, got 0",
        "replicas: -1          | expected a non-negative integer",
        "replica: 2            | unknown key; did you mean replicas?"
      })
  void invalidShardingIsReported(String body, String message) {
    assertThatThrownBy(() -> load("  scrape_sharding: {" + body + "}\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("scrape_sharding")
        .hasMessageContaining(message);
  }

  @Test
  void everyTargetIsScrapedByExactlyOneReplicaAndTheSharesAreEven() {
    int replicas = 4;
    int targets = 400;
    Map<Integer, Integer> perReplica = new HashMap<>();
    for (int t = 0; t < targets; t++) {
      Labels target = Labels.of("__address__", "10.0." + t / 250 + "." + t % 250 + ":8000");
      int keptBy = 0;
      for (int i = 0; i < replicas; i++) {
        if (Relabel.process(
                target, new ScrapeSharding(replicas, i, List.of("__address__")).relabelRules())
            != null) {
          keptBy++;
          perReplica.merge(i, 1, Integer::sum);
        }
      }
      assertThat(keptBy).as(target.toString()).isEqualTo(1);
    }
    assertThat(perReplica).hasSize(replicas);
    // md5-based hashmod spreads evenly: every share within ±30% of 1/N.
    assertThat(perReplica.values()).allMatch(n -> n > 70 && n < 130);
  }
}
