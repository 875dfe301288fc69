package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.yaml.YamlPrinter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** docs/infermon.reference.yml loads, and printing then re-reading a config changes nothing. */
class ReferenceConfigTest {
  private static Path reference() {
    Path p = Fixtures.projectFile("docs/infermon.reference.yml").orElse(null);
    Assumptions.assumeTrue(p != null, "docs/infermon.reference.yml not found from the module dir");
    return p;
  }

  @Test
  void theReferenceConfigLoadsWithoutWarnings() throws ConfigException {
    ConfigResult r = ConfigLoader.create().loadResult(reference());
    Config c = r.config();
    assertThat(r.warnings()).isEmpty();
    assertThat(c.scrapeConfigs()).hasSize(3);
    assertThat(c.inference().enabled()).isTrue();
    assertThat(c.inference().workloads().get(0).scrapeInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.inference().dcgm().port()).isEqualTo(9400);
    assertThat(c.inference().amdgpu().enabled()).isTrue();
    assertThat(c.inference().amdgpu().port()).isEqualTo(5000);
    assertThat(c.inference().amdgpu().labelSelector())
        .isEqualTo("app.kubernetes.io/name=metrics-exporter");
    assertThat(c.storage().mode()).isEqualTo(StorageConfig.Mode.EMBEDDED);
    assertThat(c.web().auth().basicUsers()).containsKey("admin");
    assertThat(c.llm().alerts().ttftThreshold()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.llm().alerts().failureRatio()).isEqualTo(0.05);
    assertThat(c.llm().alerts().failureFor()).isEqualTo(Duration.ofMinutes(15));
    assertThat(c.alerting().webhooks())
        .extracting(w -> w.url().uri().getHost())
        .containsExactly("hooks.example.com");
  }

  @Test
  void printingAndReadingBackGivesTheSameConfig() throws ConfigException {
    Config c = ConfigLoader.create().load(reference());
    String yaml = YamlPrinter.print(c, false);
    assertThat(ConfigLoader.create().parse(yaml, "printed.yml")).isEqualTo(c);
  }

  @Test
  void prometheusFixturesSurviveTheRoundTripToo() throws ConfigException {
    String file = "testdata/prometheus/prometheus-kubernetes.yml";
    Config c = ConfigLoader.create().parse(Fixtures.resource(file), file);
    assertThat(ConfigLoader.create().parse(YamlPrinter.print(c, false), "printed.yml"))
        .isEqualTo(c);
  }
}
