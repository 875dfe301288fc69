package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.app.StorageConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** INFERMON_* variables override the file and are validated like the keys they replace. */
class EnvOverridesTest {
  private static final String FILE =
      """
      global:
        scrape_interval: 30s
      web:
        listen_address: 0.0.0.0:9090
      """;

  private static Config load(Map<String, String> env) throws ConfigException {
    return ConfigLoader.create().withEnv(env).parse(FILE, "infermon.yml");
  }

  @Test
  void overridesKeysPresentInTheFileAndAddsAbsentOnes() throws ConfigException {
    Config c =
        load(
            Map.of(
                "INFERMON_GLOBAL_SCRAPE_INTERVAL", "15s",
                "INFERMON_WEB_LISTEN_ADDRESS", "127.0.0.1:9091",
                "INFERMON_STORAGE_TSDB_PATH", "/var/lib/infermon",
                "INFERMON_STORAGE_TSDB_RETENTION_SIZE", "50GB",
                "INFERMON_INFERENCE_ENABLED", "true",
                "INFERMON_INFERENCE_NAMESPACES", "llm-a, llm-b,,",
                "INFERMON_WEB_MAX_CONCURRENT_QUERIES", "8"));
    assertThat(c.global().scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.web().listenAddress()).isEqualTo("127.0.0.1:9091");
    assertThat(c.web().maxConcurrentQueries()).isEqualTo(8);
    assertThat(c.storage().tsdb().path()).isEqualTo("/var/lib/infermon");
    assertThat(c.storage().tsdb().retention().size().bytes()).isEqualTo(50L << 30);
    assertThat(c.inference().enabled()).isTrue();
    assertThat(c.inference().namespaces()).containsExactly("llm-a", "llm-b");
  }

  @Test
  void otherVariablesAreIgnored() throws ConfigException {
    Config c = load(Map.of("PATH", "/bin", "INFERMON_UNKNOWN", "x"));
    assertThat(c).isEqualTo(ConfigLoader.create().parse(FILE, "infermon.yml"));
  }

  @Test
  void aBadValueIsReportedAgainstTheVariable() {
    assertThatThrownBy(
            () ->
                load(
                    Map.of(
                        "INFERMON_GLOBAL_SCRAPE_INTERVAL", "fast",
                        "INFERMON_STORAGE_MODE", "cluster")))
        .isInstanceOf(ConfigException.class)
        .extracting(e -> ((ConfigException) e).problems().stream().map(Object::toString).toList())
        .isEqualTo(
            List.of(
                "env INFERMON_GLOBAL_SCRAPE_INTERVAL: global.scrape_interval: not a valid duration"
                    + " string: \"fast\"",
                "env INFERMON_STORAGE_MODE: storage.mode: unknown storage mode \"cluster\", expected"
                    + " one of embedded, remote, agent"));
  }

  @Test
  void valuesAreNotExpanded() throws ConfigException {
    Config c = load(Map.of("INFERMON_STORAGE_TSDB_PATH", "${HOME}/data"));
    assertThat(c.storage().tsdb().path()).isEqualTo("${HOME}/data");
    assertThat(c.storage().mode()).isEqualTo(StorageConfig.Mode.EMBEDDED);
  }
}
