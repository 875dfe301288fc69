package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code infermon export}: each row is a command line, its exit code, and what its standard output
 * or error must and must not hold. The defaults (every engine of the catalog, the resource's name)
 * are the export service's.
 */
class ExportCommandTest {
  /** The catalog's engines in its order, as the unknown-engine message lists them. */
  private static final String KNOWN_ENGINES =
      dev.infermon.llm.catalog.Catalog.builtIn().engines().stream()
          .map(dev.infermon.llm.catalog.EngineCatalog::engine)
          .collect(java.util.stream.Collectors.joining(", "));

  static Stream<Arguments> rows() {
    return Stream.of(
        // what, exit code, the output (or error) contains, and does not contain
        Arguments.of("export rules", 0, "name: infermon-llm\n", "\nkind:"),
        Arguments.of("export rules", 0, "vllm:", "<none>"),
        Arguments.of("export rules", 0, "sglang:", "<none>"),
        Arguments.of("export rules --engines vllm", 0, "vllm:", "sglang:"),
        Arguments.of("export rules --engines sglang", 0, "sglang:", "vllm:"),
        // every spelling by default: behind the SGLang gateway, through Ray, NIM's unprefixed names
        Arguments.of("export rules", 0, "sglang_time_to_first_token_seconds_bucket", "<none>"),
        Arguments.of("export rules", 0, "ray_vllm:time_to_first_token_seconds_bucket", "<none>"),
        Arguments.of("export rules", 0, "rate(time_to_first_token_seconds_bucket", "<none>"),
        Arguments.of(
            "export rules --spellings sglang_", 0, "sglang_time_to_first_token", "sglang:"),
        Arguments.of("export grafana --spellings vllm:,sglang:", 0, "vllm:", "sglang_"),
        Arguments.of(
            "export rules --engines sglang --spellings vllm:",
            2,
            "infermon export: no chosen engine is spelt \"vllm:\" (known: sglang:, sglang_)",
            "<none>"),
        Arguments.of("export grafana", 0, "\"uid\" : \"infermon-llm\"", "<none>"),
        Arguments.of("export grafana --engines vllm", 0, "vllm:", "sglang:"),
        Arguments.of("export grafana --engines dcgm,vllm", 0, "DCGM_FI_DEV", "sglang:"),
        Arguments.of("export prometheusrule", 0, "kind: PrometheusRule", "namespace:"),
        Arguments.of("export prometheusrule", 0, "  name: infermon-llm\n", "<none>"),
        Arguments.of(
            "export prometheusrule --name llm --namespace monitoring",
            0,
            "  name: llm\n  namespace: monitoring\n",
            "  name: infermon-llm\n  namespace"),
        Arguments.of(
            "export rules --engines mlc",
            2,
            "infermon export: unknown engine: \"mlc\" (known: " + KNOWN_ENGINES + ")",
            "<none>"),
        Arguments.of(
            "export prometheusrule --name Not_A_Name",
            2,
            "infermon export: not a Kubernetes object name: \"Not_A_Name\"",
            "<none>"));
  }

  /**
   * {@code --config}: the dashboard's GPU-hour price variable defaults to {@code llm.cost}'s
   * default price, the rules take {@code llm.alerts}' thresholds; a configuration that cannot be
   * read is named, nothing written.
   */
  @org.junit.jupiter.api.Test
  void configSetsThePriceVariableAndTheThresholds(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path config = dir.resolve("infermon.yml");
    Files.writeString(
        config,
        "llm:\n  cost:\n    currency: EUR\n    default_gpu_hour_price: 3.25\n"
            + "  alerts:\n    ttft_threshold: 1500ms\n");
    LintCommandTest.Run g = LintCommandTest.run("export", "grafana", "--config", config.toString());
    assertThat(g.code()).as(g.err()).isZero();
    assertThat(g.out())
        .contains("\"name\" : \"gpu_hour_price\"")
        .contains("\"label\" : \"GPU-hour price (EUR)\"")
        .contains("\"query\" : \"3.25\"")
        .contains("* $gpu_hour_price");
    LintCommandTest.Run r = LintCommandTest.run("export", "rules", "--config", config.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("> 1.5");
    LintCommandTest.Run bad =
        LintCommandTest.run("export", "grafana", "--config", dir.resolve("none.yml").toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).startsWith("infermon export: cannot read the configuration ");
    assertThat(bad.out()).isEmpty();
  }

  @ParameterizedTest(name = "{0} → {1}: {2}")
  @MethodSource("rows")
  void exportWritesTheFileOrSaysWhyNot(String args, int code, String holds, String lacks) {
    LintCommandTest.Run r = LintCommandTest.run(args.split(" "));
    assertThat(r.code()).as(r.err()).isEqualTo(code);
    String text = code == 0 ? r.out() : r.err();
    assertThat(text).contains(holds).doesNotContain(lacks);
  }
}
