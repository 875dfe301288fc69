package dev.infermon.rules.unittest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.rules.testing.RuleUnitFiles;
import java.io.IOException;
import java.nio.file.Path;
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

  static Stream<Path> corpus() throws IOException {
    return Stream.concat(RuleUnitFiles.in(CORPUS).stream(), RuleUnitFiles.in(CORPUS_3X).stream());
  }

  /**
   * With the default alert pack's own tests (module llm, {@code alert-pack-unit}: they test the
   * generated pack, which lives there) the project has at least 20 promtool-compatible files.
   */
  @Test
  void corpusHasAtLeastSixteenPromtoolCompatibleFiles() throws IOException {
    assertThat(RuleUnitFiles.in(CORPUS)).hasSizeGreaterThanOrEqualTo(16);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void passesUnderInfermon(Path file) {
    RuleUnitFiles.assertPassesUnderInfermon(file);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("promtoolCorpus")
  void passesUnderPromtool(Path file) throws Exception {
    RuleUnitFiles.assertPassesUnderPromtool(file);
  }

  static Stream<Path> promtoolCorpus() throws IOException {
    return RuleUnitFiles.in(CORPUS).stream();
  }
}
