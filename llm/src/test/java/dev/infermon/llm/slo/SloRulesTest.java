package dev.infermon.llm.slo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.rules.testing.RuleUnitFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SLO rules generated from {@code slo/infermon.yml} equal the reviewed golden file {@code
 * slo/slo.rules.yml} (regenerate with {@code -Dinfermon.lint.regenerate=true}), load as a rule
 * file, and pass the promtool-format unit tests beside it under infermon's runner and, where
 * installed, the real {@code promtool test rules}: a fast burn pages, a slow burn tickets, no burn
 * stays quiet.
 */
class SloRulesTest {
  static final Path DIR = Path.of("src/test/resources/slo");

  static List<LlmConfig.Slo> slos() throws Exception {
    return ConfigLoader.create()
        .parse(Files.readString(DIR.resolve("infermon.yml")), "infermon.yml")
        .llm()
        .slos();
  }

  static String generated() throws Exception {
    return SloRules.yaml(slos(), Catalog.builtIn(), BurnWindow.DEFAULT);
  }

  @Test
  void generatedRulesEqualTheGoldenFile() throws Exception {
    Path golden = DIR.resolve("slo.rules.yml");
    if (Boolean.getBoolean("infermon.lint.regenerate")) {
      Files.writeString(golden, generated(), StandardCharsets.UTF_8);
    }
    assertThat(generated()).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
  }

  @Test
  void generatedRulesLoadAsARuleFile() throws Exception {
    RuleFile rf = RuleFileParser.parse("slo.rules.yml", generated());
    assertThat(rf.groups()).hasSize(7);
    // 7 windows recorded + the objective + 4 alerts, per SLO
    for (var g : rf.groups()) {
      assertThat(g.rules()).as(g.name()).hasSize(12);
    }
  }

  /**
   * TensorRT-LLM 1.0's TTFT histogram is NIM's name; the term of TensorRT-LLM's own spelling must
   * say {@code engine_type!=""} (trtllm.yaml), or it reads NIM's series as TensorRT-LLM's.
   */
  @Test
  void trtllmUnprefixedLatencyTermsRequireEngineType() throws Exception {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "rate\\(time_to_first_token_seconds_(bucket|count)\\{[^}]*\\}")
            .matcher(generated());
    int terms = 0;
    while (m.find()) {
      if (m.group().endsWith(", engine_type=\"\"}")) {
        continue; // NIM's, vLLM's spelling (nimUnprefixedLatencyTermsExcludeEngineType)
      }
      assertThat(m.group()).endsWith(", engine_type!=\"\"}");
      terms++;
    }
    // both model sides (named, placeholder) of bucket and count, in each of the 7 windows
    assertThat(terms).isEqualTo(2 * 2 * 7);
  }

  /**
   * NVIDIA NIM's unprefixed latency names are TensorRT-LLM 1.0's too: every term that reads them
   * for vLLM says {@code engine_type=""}, or vLLM's SLI reads TensorRT-LLM's series as well (its
   * {@code time_per_output_token_seconds} is a per-request TPOT, not NIM's inter-token latency).
   */
  @Test
  void nimUnprefixedLatencyTermsExcludeEngineType() throws Exception {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "rate\\((time_to_first_token_seconds|e2e_request_latency_seconds"
                    + "|time_per_output_token_seconds)_(bucket|count)"
                    + "\\{model_name=\"(llama|mixed|fleet)\"[^}]*\\}")
            .matcher(generated());
    int nim = 0;
    while (m.find()) {
      assertThat(m.group()).containsAnyOf("engine_type=\"\"", "engine_type!=\"\"");
      nim += m.group().contains("engine_type=\"\"") ? 1 : 0;
    }
    // bucket and count in each of the 7 windows: TTFT of every engine, vLLM's TTFT and e2e, ITL
    // of every engine
    assertThat(nim).isEqualTo(2 * 7 * 4);
  }

  /**
   * An ITL threshold that is a bound of one family of an engine and not of another leaves out only
   * the other's terms: 4 ms is a bound of SGLang's inter_token_latency_seconds (0.5: 0.002, 0.004,
   * ...), not of its time_per_output_token_seconds (0.4.1: 0.005, ...) nor of vLLM's (0.01, ...).
   */
  @Test
  void itlKeepsOnlyTheFamiliesWithTheThresholdAsABound() {
    LlmConfig.Slo slo =
        new LlmConfig.Slo(
            "s",
            "m",
            "itl",
            "",
            java.time.Duration.ofMillis(4),
            0.95,
            LlmConfig.Slo.DEFAULT_WINDOW);
    List<SliSource> exact = SliSource.exact(slo, Catalog.builtIn());
    assertThat(exact).extracting(s -> s.engine().engine()).containsExactly("sglang");
    assertThat(exact.get(0).families())
        .extracting(SliSource.Family::name)
        .containsExactly("inter_token_latency_seconds");
    LlmConfig.Slo at100ms =
        new LlmConfig.Slo(
            "s",
            "m",
            "itl",
            "vllm",
            java.time.Duration.ofMillis(100),
            0.95,
            LlmConfig.Slo.DEFAULT_WINDOW);
    assertThat(SliSource.exact(at100ms, Catalog.builtIn()).get(0).families())
        .extracting(SliSource.Family::name)
        .containsExactly("inter_token_latency_seconds", "time_per_output_token_seconds");
  }

  static List<Path> unitTests() throws IOException {
    return RuleUnitFiles.in(DIR);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unitTests")
  void burnsBehaveUnderInfermon(Path file) {
    RuleUnitFiles.assertPassesUnderInfermon(file);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unitTests")
  void burnsBehaveUnderPromtool(Path file) throws Exception {
    RuleUnitFiles.assertPassesUnderPromtool(file);
  }
}
