package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.vllm.VllmRelease;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lint corpus ({@code src/test/resources/corpus}): each file under {@code defects} gives
 * exactly the findings of its {@code .expected} golden file (line, column, check, severity,
 * subject), every check appears in some defect file, and every file under {@code clean} gives no
 * finding at all. Checked against the simulated fleet of {@link SimulatedEndpoints#corpusFleet()},
 * inventoried as a live scrape, and against the same fleet stored and read back. Run with {@code
 * -Dinfermon.lint.regenerate=true} to rewrite the golden files (then review the diff). A defect
 * file whose name starts with {@code releases} is about releases older than the corpus fleet runs:
 * it is checked against that fleet with its older pods on vLLM 0.4.3 ({@link #RELEASES}).
 */
class CorpusTest {
  static final Path CORPUS = Path.of("src/test/resources/corpus");
  static final String RELEASES = "releases";
  static Reference reference;
  static Reference stored;
  static Reference releases;
  static Reference releasesStored;

  @BeforeAll
  static void endpoints() {
    reference = SimulatedEndpoints.corpusReference();
    stored =
        SimulatedEndpoints.storedReference(
            SimulatedEndpoints.corpusFleet(), Duration.ofMinutes(10));
    FleetConfig old =
        SimulatedEndpoints.corpusFleet().toBuilder().legacyRelease(VllmRelease.V0_4_3).build();
    releases =
        Reference.of(
            Catalog.builtIn(),
            SimulatedEndpoints.inventory(old, Duration.ofMinutes(10)),
            Reference.Mode.LIVE);
    releasesStored = SimulatedEndpoints.storedReference(old, Duration.ofMinutes(10));
  }

  private static boolean aboutReleases(Path file) {
    return file.getFileName().toString().startsWith(RELEASES);
  }

  static Stream<Path> defects() throws IOException {
    return files(CORPUS.resolve("defects"));
  }

  static Stream<Path> clean() throws IOException {
    return files(CORPUS.resolve("clean"));
  }

  /**
   * The same fleet read from what a store holds (no TYPE lines, the target labels of discovery):
   * every defect gives the same findings, the renames' fixes included, and clean stays clean.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("defects")
  void storedReferenceGivesTheSameFindings(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    LintResult r =
        new LintRun(aboutReleases(file) ? releasesStored : stored, LintOptions.DEFAULT)
            .run(List.of(LintInput.file(file.getFileName().toString(), text)));
    assertThat(golden(r))
        .as("findings of %s against the stored fleet:%n%s", file, r.findings())
        .isEqualTo(Files.readString(Path.of(file + ".expected"), StandardCharsets.UTF_8));
    LintResult live = lint(file);
    for (int i = 0; i < r.findings().size(); i++) {
      assertThat(r.findings().get(i).fix())
          .as("the fix of %s", r.findings().get(i))
          .isEqualTo(live.findings().get(i).fix());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("clean")
  void cleanFileGivesNoFindingAgainstTheStoredFleet(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    LintResult r =
        new LintRun(stored, LintOptions.DEFAULT)
            .run(List.of(LintInput.file(file.getFileName().toString(), text)));
    assertThat(r.findings()).isEmpty();
  }

  private static Stream<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> !p.toString().endsWith(".expected")).sorted().toList().stream();
    }
  }

  static LintResult lint(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    return new LintRun(aboutReleases(file) ? releases : reference, LintOptions.DEFAULT)
        .run(List.of(LintInput.file(file.getFileName().toString(), text)));
  }

  static String golden(LintResult r) {
    return r.findings().stream()
        .map(
            f ->
                f.location().line()
                    + ":"
                    + f.location().column()
                    + " "
                    + f.check().id()
                    + " "
                    + f.severity().label()
                    + " "
                    + f.subject())
        .collect(Collectors.joining("\n", "", "\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("defects")
  void defectFileGivesItsExpectedFindings(Path file) throws IOException {
    LintResult r = lint(file);
    Path expected = Path.of(file + ".expected");
    if (Boolean.getBoolean("infermon.lint.regenerate")) {
      Files.writeString(expected, golden(r), StandardCharsets.UTF_8);
    }
    assertThat(golden(r))
        .as("findings of %s:%n%s", file, r.findings())
        .isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("clean")
  void cleanFileGivesNoFinding(Path file) throws IOException {
    LintResult r = lint(file);
    assertThat(r.findings()).isEmpty();
    assertThat(r.queries()).isPositive();
  }

  @Test
  void everyQueryCheckHasADefectInTheCorpus() throws IOException {
    Set<CheckId> seen = EnumSet.noneOf(CheckId.class);
    for (Path p : defects().toList()) {
      lint(p).findings().forEach(f -> seen.add(f.check()));
    }
    Set<CheckId> all = EnumSet.allOf(CheckId.class);
    all.remove(CheckId.SLO_THRESHOLD_NOT_BUCKET); // SLO configs, tested in slo.SloCheckTest
    assertThat(seen).containsAll(all);
  }
}
