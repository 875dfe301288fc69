package dev.infermon.rules.unittest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.storage.testing.MemoryStorage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rule unit-test corpus ({@code src/test/resources/rules-unit}) passes under infermon's runner
 * and, when {@code /usr/bin/promtool} is installed, under the real {@code promtool test rules}
 * (2.42): the same files, two implementations. {@code rules-unit-3x} holds Prometheus 3.x features
 * that promtool 2.42 lacks and runs under infermon only.
 */
class RuleUnitFilesTest {
  static final Path CORPUS = Path.of("src/test/resources/rules-unit");
  static final Path CORPUS_3X = Path.of("src/test/resources/rules-unit-3x");
  static final Path PROMTOOL = Path.of("/usr/bin/promtool");

  static List<Path> testFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith("_test.yml"))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  static Stream<Path> corpus() throws IOException {
    return Stream.concat(testFiles(CORPUS).stream(), testFiles(CORPUS_3X).stream());
  }

  /**
   * With the default alert pack's own tests (module llm, {@code alert-pack-unit}: they test the
   * generated pack, which lives there) the project has at least 20 promtool-compatible files.
   */
  @Test
  void corpusHasAtLeastSixteenPromtoolCompatibleFiles() throws IOException {
    assertThat(testFiles(CORPUS)).hasSizeGreaterThanOrEqualTo(16);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void passesUnderInfermon(Path file) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        new RuleUnitTester(MemoryStorage::new, new PrintWriter(out), new PrintWriter(err))
            .run(List.of(file));
    assertThat(err.toString()).isEmpty();
    assertThat(code).isZero();
    assertThat(out.toString()).isEqualTo("Unit Testing:  " + file + "\n  SUCCESS\n\n");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("promtoolCorpus")
  void passesUnderPromtool(Path file) throws Exception {
    assumeTrue(Files.isExecutable(PROMTOOL), "promtool is not installed at " + PROMTOOL);
    Process p =
        new ProcessBuilder(PROMTOOL.toString(), "test", "rules", file.toString())
            .redirectErrorStream(true)
            .start();
    String output;
    try (var in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    assertThat(p.exitValue()).as(output).isZero();
  }

  static Stream<Path> promtoolCorpus() throws IOException {
    return testFiles(CORPUS).stream();
  }
}
