package dev.infermon.rules.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.rules.unittest.RuleUnitTester;
import dev.infermon.storage.testing.MemoryStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Promtool-format rule unit-test files ({@code *_test.yml}) run two ways: under infermon's {@link
 * RuleUnitTester} over a {@link MemoryStorage}, and under the real {@code promtool test rules}
 * (2.42, {@code /usr/bin/promtool}), so that one file checks both implementations. Used by the rule
 * corpus in this module, the default alert pack's tests (llm) and the SLO rules' tests (lint).
 */
public final class RuleUnitFiles {
  public static final Path PROMTOOL = Path.of("/usr/bin/promtool");

  private RuleUnitFiles() {}

  /** The {@code *_test.yml} files directly in {@code dir}, sorted. */
  public static List<Path> in(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith("_test.yml")).sorted().toList();
    }
  }

  /** Asserts that {@code file} passes under infermon's runner with promtool's success output. */
  public static void assertPassesUnderInfermon(Path file) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        new RuleUnitTester(MemoryStorage::new, new PrintWriter(out), new PrintWriter(err))
            .run(List.of(file));
    assertThat(err.toString()).as(out.toString()).isEmpty();
    assertThat(code).as(out.toString()).isZero();
    assertThat(out.toString()).isEqualTo("Unit Testing:  " + file + "\n  SUCCESS\n\n");
  }

  /**
   * Asserts that {@code file} passes under {@code promtool test rules} within two minutes; skips (a
   * JUnit assumption) where promtool is not installed.
   */
  public static void assertPassesUnderPromtool(Path file) throws IOException, InterruptedException {
    assumeTrue(Files.isExecutable(PROMTOOL), "promtool is not installed at " + PROMTOOL);
    Process p =
        new ProcessBuilder(PROMTOOL.toString(), "test", "rules", file.toString())
            .redirectErrorStream(true)
            .start();
    String output;
    try (InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    assertThat(p.exitValue()).as(output).isZero();
  }
}
