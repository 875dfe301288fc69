package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.testing.Captures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dashboards and rule files peer projects publish ({@code ../shared/lint-corpus}, read from
 * there and never copied into the tree; SOURCES.md there says what each is and what is wrong with
 * it), linted against the catalog, the simulated fleet of {@link CorpusTest} and the real captures
 * replayed as one fleet (vLLM 0.4.3, 0.11 and 2026, SGLang 0.4.1, two dcgm-exporters, NIM), each
 * compared with a reviewed golden in {@code src/test/resources/peer-corpus/<file>.<reference>}
 * (line, column, check, severity, subject): every finding in a golden was judged a true positive
 * when it was written, so a new finding is either a real problem to add or a false alarm to fix.
 * Skips, saying so, when the corpus is absent. {@code -Dinfermon.lint.regenerate=true} rewrites the
 * goldens (then review the diff).
 */
class PeerCorpusTest {
  static final Path GOLDENS = Path.of("src/test/resources/peer-corpus");
  static Path corpus;
  static Map<String, Reference> references;

  @BeforeAll
  static void corpusAndReferences() {
    corpus = Path.of(System.getProperty("infermon.shared.dir", "../../shared"), "lint-corpus");
    references =
        Map.of(
            "catalog",
            Reference.catalogOnly(Catalog.builtIn()),
            "simulated",
            SimulatedEndpoints.corpusReference(),
            "captures",
            SimulatedEndpoints.captureReference(fullCaptures()));
  }

  static Stream<Arguments> files() throws IOException {
    Path root = Path.of(System.getProperty("infermon.shared.dir", "../../shared"), "lint-corpus");
    if (!Files.isDirectory(root)) {
      return Stream.of(Arguments.of("(corpus absent)", "catalog"));
    }
    List<Arguments> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(PeerCorpusTest::lintable).sorted().toList()) {
        for (String ref : List.of("catalog", "simulated", "captures")) {
          out.add(Arguments.of(root.relativize(p).toString(), ref));
        }
      }
    }
    return out.stream();
  }

  /**
   * The real captures as one fleet, but the excerpts (a page cut to a few families says nothing of
   * what its target lacks) and the Ray-prefixed one (a spelling lint judges elsewhere).
   */
  static List<Captures.Entry> fullCaptures() {
    return Captures.all().stream()
        .filter(c -> !c.path().contains("EXCERPT") && !c.path().contains("TRUNCATED"))
        .filter(c -> !c.path().contains("rayprefix"))
        .toList();
  }

  private static boolean lintable(Path p) {
    String n = p.getFileName().toString();
    return Files.isRegularFile(p)
        && (n.endsWith(".json") || n.endsWith(".yaml") || n.endsWith(".yml"));
  }

  private static void assumeCorpus() {
    Assumptions.assumeTrue(
        Files.isDirectory(corpus),
        "the peer lint corpus is not at " + corpus.toAbsolutePath() + ": skipped");
  }

  @ParameterizedTest(name = "{0} against the {1}")
  @MethodSource("files")
  void everyFindingIsOneReviewedAsTrue(String file, String reference) throws IOException {
    assumeCorpus();
    String text = Files.readString(corpus.resolve(file), StandardCharsets.UTF_8);
    LintResult r =
        new LintRun(references.get(reference), LintOptions.DEFAULT)
            .run(List.of(LintInput.file(file, text)));
    Path golden = GOLDENS.resolve(file + "." + reference);
    if (Boolean.getBoolean("infermon.lint.regenerate")) {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, CorpusTest.golden(r), StandardCharsets.UTF_8);
    }
    assertThat(golden).as("the reviewed golden of %s", file).exists();
    assertThat(CorpusTest.golden(r))
        .as("findings of %s against the %s:%n%s", file, reference, r.findings())
        .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    assertThat(r.queries()).as("%s has queries to check", file).isPositive();
  }

  @Test
  void everyGoldenHasItsFile() throws IOException {
    assumeCorpus();
    try (Stream<Path> s = Files.walk(GOLDENS)) {
      for (Path g : s.filter(Files::isRegularFile).toList()) {
        String name = GOLDENS.relativize(g).toString();
        String file = name.substring(0, name.lastIndexOf('.'));
        assertThat(corpus.resolve(file)).as("the corpus file of golden %s", name).exists();
      }
    }
  }
}
