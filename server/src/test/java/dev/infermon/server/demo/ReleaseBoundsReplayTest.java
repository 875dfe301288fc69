package dev.infermon.server.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.Severity;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.simulator.testing.Captures;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A rule reading the 20 s bucket of time to first token, linted against what a replayed capture
 * left in the store ({@link ReplayedWorld}, lint's stored reference, as {@code infermon lint
 * --stored} reads it): vLLM 0.4.3's page and NVIDIA NIM's stop that histogram at 10 s, so the
 * bucket does not exist there and lint says so, naming the target and the bounds it has; the 2026
 * page (a current release, buckets to 2560 s) has it, and gets nothing.
 */
class ReleaseBoundsReplayTest {
  static String rule(String family) {
    return "groups:\n"
        + "  - name: g\n"
        + "    rules:\n"
        + "      - alert: FewFirstTokensWithin20s\n"
        + "        expr: sum by (model_name) (rate("
        + family
        + "_bucket{le=\"20.0\"}[5m])) / sum by (model_name) (rate("
        + family
        + "_count[5m])) < 0.95\n"
        + "        for: 10m\n";
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "vllm/vllm-0.4.3.txt, vllm:time_to_first_token_seconds, true",
    "nim/nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt, time_to_first_token_seconds, true",
    "vllm/vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt,"
        + " vllm:time_to_first_token_seconds, false"
  })
  void aBucketOfTheNewestReleaseOnly(
      String capture, String family, boolean missing, @TempDir Path dir) throws Exception {
    LintResult r;
    try (ReplayedWorld w = ReplayedWorld.run(List.of(Captures.get(capture).target()), dir)) {
      r =
          w.llm
              .lint()
              .stored(OptionalLong.empty())
              .lint(
                  List.of(LintInput.file("r.yml", rule(family))),
                  LintOptions.DEFAULT.withScrapeInterval(ReplayedWorld.STEP));
    }
    List<Finding> f =
        r.findings().stream().filter(x -> x.check() == CheckId.BOUND_MISSING_IN_RELEASE).toList();
    if (!missing) {
      assertThat(r.findings()).as("%s", r.findings()).isEmpty();
      return;
    }
    assertThat(f).as("%s", r.findings()).hasSize(1);
    assertThat(f.get(0).severity()).isEqualTo(Severity.ERROR);
    assertThat(f.get(0).message())
        .contains("le=\"20.0\"", family, "nearest bounds there: 10", "vLLM 0.4");
    assertThat(f.get(0).fix()).contains("le=\"10.0\"");
  }
}
