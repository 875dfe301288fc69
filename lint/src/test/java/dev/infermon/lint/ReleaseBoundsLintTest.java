package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.vllm.VllmRelease;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * bound-missing-in-release: a latency threshold read through {@code le} must be a bucket bound in
 * every release the targets run. vLLM 0.4.3's page and NVIDIA NIM's (which embeds vLLM V0) stop
 * time to first token at 10 s and time per output token at 2.5 s (vllm-project/vllm
 * vllm/engine/metrics.py @ 00c33e81; the captures), where the newest releases go to 2560 s and 80
 * s; the same rules against current pods, or with a bound both sets have, give nothing.
 */
class ReleaseBoundsLintTest {
  static final String V0 = "vllm-0.4.3.txt";
  static final String NIM = "nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt";
  static final String V011 = "vllm-0.11.x-idle.txt";

  /** The share of requests of {@code family} within {@code le}, below 95 %: an SLO-style rule. */
  static String ratioRule(String family, String le) {
    return "groups:\n"
        + "  - name: g\n"
        + "    rules:\n"
        + "      - alert: FewWithin\n"
        + "        expr: sum by (model_name) (rate("
        + family
        + "_bucket{le=\""
        + le
        + "\"}[5m])) / sum by (model_name) (rate("
        + family
        + "_count[5m])) < 0.95\n"
        + "        for: 10m\n";
  }

  static LintResult lint(Reference ref, String rules) {
    return new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.file("r.yml", rules)));
  }

  static List<Finding> missing(LintResult r) {
    return r.findings().stream()
        .filter(f -> f.check() == CheckId.BOUND_MISSING_IN_RELEASE)
        .toList();
  }

  /** Each capture replayed alone: the bucket the rule reads is not on its page. */
  @ParameterizedTest(name = "{1} le={2} against {0}")
  @CsvSource({
    V0 + ", vllm:time_to_first_token_seconds, 20.0, 10",
    V0 + ", vllm:time_per_output_token_seconds, 5.0, 2.5",
    NIM + ", time_to_first_token_seconds, 20.0, 10",
    NIM + ", time_per_output_token_seconds, 5.0, 2.5"
  })
  void aBoundOfTheNewestReleaseOnlyIsMissingOnAV0Page(
      String capture, String family, String le, String nearest) {
    Reference ref = SimulatedEndpoints.captureReference(List.of(Captures.get(capture)));
    List<Finding> f = missing(lint(ref, ratioRule(family, le)));
    assertThat(f).as("%s", f).hasSize(1);
    assertThat(f.get(0).severity()).isEqualTo(Severity.ERROR);
    assertThat(f.get(0).subject()).isEqualTo(le.replace(".0", ""));
    assertThat(f.get(0).message())
        .contains("le=\"" + le + "\"", family, capture, "nearest bounds there: " + nearest);
    // the finding points at the le matcher, as threshold findings point at the threshold
    assertThat(f.get(0).location().column())
        .isEqualTo(ratioRule(family, le).lines().toList().get(4).indexOf("le=") + 1);
  }

  /** 5 s is a bound of V0's time to first token too: nothing to say. */
  @Test
  void aBoundOfEveryReleaseIsFine() {
    Reference ref = SimulatedEndpoints.captureReference(List.of(Captures.get(V0)));
    assertThat(lint(ref, ratioRule("vllm:time_to_first_token_seconds", "5.0")).findings())
        .isEmpty();
  }

  /**
   * A V0 page beside a 0.11 page: 20 is a bound of the union, so threshold-between-buckets is
   * silent, and the quantile's {@code > 20} can never hold on the V0 target (its quantile stops at
   * 10). The finding names that target, not the 0.11 one.
   */
  @Test
  void aQuantileThresholdMissingOnOneTargetOfAMixedFleet() {
    Reference ref =
        SimulatedEndpoints.captureReference(List.of(Captures.get(V0), Captures.get(V011)));
    String rules =
        "groups:\n  - name: g\n    rules:\n      - alert: Slow\n"
            + "        expr: histogram_quantile(0.95, sum by (le, model_name)"
            + " (rate(vllm:time_to_first_token_seconds_bucket[5m]))) > 20\n"
            + "        for: 10m\n";
    LintResult r = lint(ref, rules);
    assertThat(r.findings())
        .as("%s", r.findings())
        .noneMatch(f -> f.check() == CheckId.THRESHOLD_BETWEEN_BUCKETS);
    List<Finding> f = missing(r);
    assertThat(f).as("%s", r.findings()).hasSize(1);
    assertThat(f.get(0).message())
        .contains("compared with 20", V0, "nearest bounds there: 10", "never holds")
        .doesNotContain(V011);
    assertThat(f.get(0).fix()).startsWith("compare with >= 10,");
    assertThat(f.get(0).location().column())
        .isEqualTo(rules.lines().toList().get(4).lastIndexOf("20") + 1);
  }

  /**
   * {@code > 10} where 10 is a target's largest finite bound (vLLM 0.4.3's TTFT): the quantile
   * there is at most 10, so the comparison never holds; {@code >= 10} does, and gets nothing.
   */
  @ParameterizedTest(name = "{0} 10")
  @CsvSource({">, 1", ">=, 0"})
  void aQuantileAboveATargetsLargestBound(String op, int findings) {
    Reference ref =
        SimulatedEndpoints.captureReference(List.of(Captures.get(V0), Captures.get(V011)));
    String rules =
        "groups:\n  - name: g\n    rules:\n      - alert: Slow\n"
            + "        expr: histogram_quantile(0.95, sum by (le, model_name)"
            + " (rate(vllm:time_to_first_token_seconds_bucket[5m]))) "
            + op
            + " 10\n"
            + "        for: 10m\n";
    LintResult r = lint(ref, rules);
    assertThat(r.findings()).as("%s", r.findings()).hasSize(findings);
    if (findings == 1) {
      assertThat(r.findings().get(0).check()).isEqualTo(CheckId.BOUND_MISSING_IN_RELEASE);
      assertThat(r.findings().get(0).message())
          .contains("the largest finite bucket bound on " + V0, "never holds");
      assertThat(r.findings().get(0).fix()).startsWith("compare with >= 10,");
    }
  }

  /** Current pods only: every le and threshold above exists on them, no finding at all. */
  @Test
  void theSameRulesAgainstACurrentFleetGiveNothing() {
    FleetConfig current =
        FleetConfig.builder()
            .vllmPods(2)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .build();
    Reference ref =
        Reference.of(
            Catalog.builtIn(),
            SimulatedEndpoints.inventory(current, Duration.ofMinutes(10)),
            Reference.Mode.LIVE);
    assertThat(lint(ref, ratioRule("vllm:time_to_first_token_seconds", "20.0")).findings())
        .isEmpty();
    assertThat(lint(ref, ratioRule("vllm:inter_token_latency_seconds", "5.0")).findings())
        .isEmpty();
  }

  /**
   * Without endpoints, every release the catalog records is one a target may run: a warning naming
   * the releases whose buckets lack the bound (vLLM 0.4-0.7) and the bounds that exist there.
   */
  @Test
  void withoutEndpointsEveryCataloguedReleaseIsJudged() {
    Reference ref = Reference.catalogOnly(Catalog.builtIn());
    List<Finding> f = missing(lint(ref, ratioRule("vllm:time_to_first_token_seconds", "20.0")));
    assertThat(f).as("%s", f).hasSize(1);
    assertThat(f.get(0).severity()).isEqualTo(Severity.WARNING);
    assertThat(f.get(0).message())
        .contains("vLLM 0.4–0.7 (nearest bounds there: 10)")
        .doesNotContain("0.8");
    assertThat(f.get(0).fix()).contains("le=\"10.0\"");
  }

  /** The default alert pack's thresholds with the TTFT one at 20 s. */
  static final LlmConfig.Alerts AT_20S =
      new LlmConfig.Alerts(
          true,
          0.95,
          Duration.ofSeconds(20),
          Duration.ofMinutes(10),
          50,
          Duration.ofMinutes(15),
          0.05,
          Duration.ofMinutes(15),
          10);

  static final ExportService EXPORTS = new ExportService(Catalog.builtIn());

  /**
   * The alert pack exported for a fleet ({@code infermon export rules --endpoint}) with a TTFT
   * threshold of 20 s: on a fleet with a vLLM 0.4.3 pod, or NIM's page, whose buckets stop at 10 s,
   * vLLM's quantile is compared with 10, the largest bound every target has (a {@code > 20} would
   * never fire there), the summary says so, and the pack lints clean against that fleet; on current
   * pods alone it stays 20.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"0.4.3 and current, 10", "NIM, 10", "current, 20"})
  void aFleetsAlertPackComparesTtftWithABoundEveryTargetHas(String fleet, String expected) {
    Inventory inv =
        switch (fleet) {
          case "NIM" -> SimulatedEndpoints.captureReference(List.of(Captures.get(NIM))).inventory();
          case "current" -> SimulatedEndpoints.inventory(current(), Duration.ofMinutes(10));
          default ->
              SimulatedEndpoints.inventory(
                  current().toBuilder().legacyVllmPods(1).legacyRelease(VllmRelease.V0_4_3).build(),
                  Duration.ofMinutes(10));
        };
    String rules = EXPORTS.rules(inv, AT_20S);
    // the YAML folds long strings: "...\<newline><indent>\ ..."
    String flat = rules.replaceAll("\\\\\n\\s*\\\\ ", " ").replaceAll("\\\\\n\\s*", "");
    String ttft =
        flat.lines().dropWhile(l -> !l.contains(AlertPack.TTFT)).skip(1).findFirst().orElseThrow();
    assertThat(ttft).as(flat).endsWith((expected.equals("10") ? ">= " : "> ") + expected + "\"");
    assertThat(
            flat.contains(
                "(vLLM at 10s: the largest bucket bound under 20s that all its targets have)"))
        .isEqualTo(expected.equals("10"));
    LintResult r = lint(Reference.of(Catalog.builtIn(), inv, Reference.Mode.LIVE), rules);
    assertThat(r.findings())
        .as("%s", r.findings())
        .noneMatch(
            f ->
                f.check() == CheckId.BOUND_MISSING_IN_RELEASE
                    || f.check() == CheckId.THRESHOLD_BETWEEN_BUCKETS);
  }

  static FleetConfig current() {
    return FleetConfig.builder()
        .vllmPods(2)
        .legacyVllmPods(0)
        .sglangPods(0)
        .sglangGatewayPods(0)
        .prefillDecode(false)
        .build();
  }
}
