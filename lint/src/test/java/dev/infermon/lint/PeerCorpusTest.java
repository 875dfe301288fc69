package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.testing.Captures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboards and rule files peer projects publish ({@code ../shared/lint-corpus}, read from
 * there and never copied into the tree; SOURCES.md there says what each is and what is wrong with
 * it), each linted against the catalog, the simulated pages of the engines it is meant for and the
 * real captures of those engines, and compared with the reviewed table {@code
 * src/test/resources/peer-corpus/judged.md}: per file its endpoints, its findings by kind and every
 * finding judged true or false, with why. A new finding is UNJUDGED until someone judges it; a
 * false one is fixed in lint or the catalog. docs/lint.md carries the table's summary. Skips,
 * saying so, when the corpus is absent. {@code -Dinfermon.lint.regenerate=true} rewrites the table,
 * keeping the verdicts (then review the diff).
 */
class PeerCorpusTest {
  static final Path GOLDEN = Path.of("src/test/resources/peer-corpus/judged.md");
  static final Path DOCS = Path.of("../docs/lint.md");
  static final Duration TRAFFIC = Duration.ofMinutes(10);

  /**
   * The endpoints a corpus directory's files are meant for.
   *
   * @param fleet what the simulated fleet runs, as the table says it
   * @param config the simulated fleet
   * @param captures the capture directories of its engines
   */
  record Meant(String fleet, FleetConfig config, List<String> captures) {}

  static final Map<String, Meant> MEANT =
      Map.of(
          "vllm",
          new Meant(
              "vLLM (current, one data-parallel pod, 0.11), dcgm-exporter", vllm(), vllmDirs()),
          "production-stack",
          new Meant(
              "vLLM (current, one data-parallel pod, 0.11), production-stack's router, dcgm-exporter",
              vllm().toBuilder().router(RouterKind.PRODUCTION_STACK).build(),
              vllmDirs()),
          "llm-d",
          new Meant(
              "vLLM (current, one data-parallel pod, 0.11, a prefill/decode pair), SGLang's"
                  + " prefill/decode pair, llm-d's endpoint picker, dcgm-exporter",
              vllm().toBuilder().prefillDecode(true).router(RouterKind.LLM_D).build(),
              List.of("vllm", "dcgm")),
          "kserve",
          new Meant(
              "vLLM (current, one data-parallel pod, 0.11), llm-d's endpoint picker, dcgm-exporter",
              vllm().toBuilder().router(RouterKind.LLM_D).build(),
              vllmDirs()),
          "dcgm-exporter",
          new Meant(
              "dcgm-exporter on the GPUs of one vLLM pod",
              vllm().toBuilder().vllmPods(1).dataParallelPods(0).legacyVllmPods(0).build(),
              List.of("dcgm")));

  static Path corpus;
  static Map<String, Map<String, LintResult>> results;
  static String table;

  private static FleetConfig vllm() {
    return FleetConfig.builder()
        .vllmPods(2)
        .dataParallelPods(1)
        .legacyVllmPods(1)
        .sglangPods(0)
        .sglangGatewayPods(0)
        .prefillDecode(false)
        .build();
  }

  private static List<String> vllmDirs() {
    return List.of("vllm");
  }

  @BeforeAll
  static void lintEveryFile() throws IOException {
    corpus = Path.of(System.getProperty("infermon.shared.dir", "../../shared"), "lint-corpus");
    Assumptions.assumeTrue(
        Files.isDirectory(corpus),
        "the peer lint corpus is not at " + corpus.toAbsolutePath() + ": skipped");
    Map<String, Reference> simulated = new LinkedHashMap<>();
    Map<String, Reference> captured = new LinkedHashMap<>();
    MEANT.forEach(
        (dir, m) -> {
          simulated.put(
              dir,
              Reference.of(
                  Catalog.builtIn(),
                  SimulatedEndpoints.inventory(m.config(), TRAFFIC),
                  Reference.Mode.LIVE));
          captured.put(dir, SimulatedEndpoints.captureReference(captures(m)));
        });
    Reference catalog = Reference.catalogOnly(Catalog.builtIn());
    results = new LinkedHashMap<>();
    for (String file : files()) {
      String dir = file.substring(0, file.indexOf('/'));
      String text = Files.readString(corpus.resolve(file), StandardCharsets.UTF_8);
      Map<String, LintResult> byRef = new LinkedHashMap<>();
      byRef.put("catalog", lint(catalog, file, text));
      byRef.put("simulated", lint(simulated.get(dir), file, text));
      byRef.put("captures", lint(captured.get(dir), file, text));
      results.put(file, byRef);
    }
    String old =
        Files.isRegularFile(GOLDEN) ? Files.readString(GOLDEN, StandardCharsets.UTF_8) : "";
    table = render(JudgedTable.verdicts(old));
  }

  private static LintResult lint(Reference ref, String file, String text) {
    return new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.file(file, text)));
  }

  /**
   * The full captures of a directory's engines: not the excerpts (a page cut to a few families says
   * nothing of what its target lacks) nor the Ray-prefixed one (a spelling lint judges elsewhere).
   */
  static List<Captures.Entry> captures(Meant m) {
    return Captures.all().stream()
        .filter(c -> m.captures().contains(c.path().substring(0, c.path().indexOf('/'))))
        .filter(c -> !c.path().contains("EXCERPT") && !c.path().contains("TRUNCATED"))
        .filter(c -> !c.path().contains("rayprefix"))
        .toList();
  }

  private static List<String> files() throws IOException {
    try (Stream<Path> s = Files.walk(corpus)) {
      return s.filter(PeerCorpusTest::lintable)
          .map(p -> corpus.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .toList();
    }
  }

  private static boolean lintable(Path p) {
    String n = p.getFileName().toString();
    return Files.isRegularFile(p)
        && (n.endsWith(".json") || n.endsWith(".yaml") || n.endsWith(".yml"));
  }

  /** The whole table, with the verdicts of {@code verdicts} (UNJUDGED where none). */
  static String render(Map<String, JudgedTable.Verdict> verdicts) {
    StringBuilder sb = new StringBuilder();
    sb.append("# The peer lint corpus, every finding judged\n\n")
        .append("Written by PeerCorpusTest (-Dinfermon.lint.regenerate=true keeps the verdicts;\n")
        .append("a new finding is UNJUDGED). References: catalog (the newest release of each\n")
        .append("engine), simulated (the fleet below), captures (the real pages below).\n");
    for (Map.Entry<String, Map<String, LintResult>> e : results.entrySet()) {
      String file = e.getKey();
      Meant m = MEANT.get(file.substring(0, file.indexOf('/')));
      sb.append("\n## ").append(file).append("\n\n");
      sb.append("Simulated: ").append(m.fleet()).append(".\n");
      sb.append("Captures: ")
          .append(
              captures(m).stream().map(Captures.Entry::fileName).collect(Collectors.joining(", ")))
          .append(".\n\n");
      byKind(sb, e.getValue());
      sb.append("| at | check | severity | subject | against | verdict | why |\n");
      sb.append("|---|---|---|---|---|---|---|\n");
      for (JudgedTable.Row r : JudgedTable.rows(e.getValue())) {
        JudgedTable.Verdict v =
            verdicts.getOrDefault(r.key(file), new JudgedTable.Verdict(JudgedTable.UNJUDGED, ""));
        sb.append("| ")
            .append(String.join(" | ", r.at(), r.check(), r.severity(), r.subject()))
            .append(" | ")
            .append(String.join(", ", r.against()))
            .append(" | ")
            .append(v.verdict())
            .append(" | ")
            .append(v.why())
            .append(" |\n");
      }
    }
    return sb.toString();
  }

  private static void byKind(StringBuilder sb, Map<String, LintResult> byRef) {
    Map<String, Map<String, Integer>> kinds = JudgedTable.byKind(byRef);
    if (kinds.isEmpty()) {
      sb.append("No finding against any reference.\n\n");
      return;
    }
    sb.append("| kind | catalog | simulated | captures |\n|---|---|---|---|\n");
    kinds.forEach(
        (kind, n) ->
            sb.append("| ")
                .append(kind)
                .append(" | ")
                .append(n.getOrDefault("catalog", 0))
                .append(" | ")
                .append(n.getOrDefault("simulated", 0))
                .append(" | ")
                .append(n.getOrDefault("captures", 0))
                .append(" |\n"));
    sb.append('\n');
  }

  /** The summary docs/lint.md carries: per file, its findings, their kinds, the false alarms. */
  static String summary(Map<String, JudgedTable.Verdict> verdicts) {
    StringBuilder sb = new StringBuilder("| file | findings | by kind | false alarms |\n");
    sb.append("|---|---|---|---|\n");
    int all = 0;
    int wrong = 0;
    for (Map.Entry<String, Map<String, LintResult>> e : results.entrySet()) {
      // a finding of several severities (a warning by the catalog, an error by endpoints) is one
      Map<String, JudgedTable.Row> distinct = new LinkedHashMap<>();
      JudgedTable.rows(e.getValue()).forEach(r -> distinct.putIfAbsent(r.key(e.getKey()), r));
      List<JudgedTable.Row> rows = List.copyOf(distinct.values());
      Map<String, Integer> kinds = new TreeMap<>();
      int f = 0;
      for (JudgedTable.Row r : rows) {
        kinds.merge(r.check(), 1, Integer::sum);
        JudgedTable.Verdict v = verdicts.get(r.key(e.getKey()));
        f += v != null && v.verdict().equals("false") ? 1 : 0;
      }
      all += rows.size();
      wrong += f;
      List<String> k = new ArrayList<>();
      kinds.forEach((kind, n) -> k.add(kind + " " + n));
      sb.append("| `")
          .append(e.getKey())
          .append("` | ")
          .append(rows.size())
          .append(" | ")
          .append(k.isEmpty() ? "none" : String.join(", ", k))
          .append(" | ")
          .append(f)
          .append(" |\n");
    }
    sb.append("| all | ").append(all).append(" | | ").append(wrong).append(" |\n");
    return sb.toString();
  }

  @Test
  void everyFileGivesTheReviewedTable() throws IOException {
    if (Boolean.getBoolean("infermon.lint.regenerate")) {
      Files.createDirectories(GOLDEN.getParent());
      Files.writeString(GOLDEN, table, StandardCharsets.UTF_8);
    }
    assertThat(GOLDEN).as("the reviewed table").exists();
    assertThat(table).isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
  }

  @Test
  void everyFindingIsJudgedAndNoneIsAFalseAlarm() throws IOException {
    Map<String, JudgedTable.Verdict> v =
        JudgedTable.verdicts(Files.readString(GOLDEN, StandardCharsets.UTF_8));
    assertThat(v).as("the table's findings").isNotEmpty();
    v.forEach(
        (key, verdict) -> {
          assertThat(verdict.verdict()).as("the verdict on %s", key).isIn("true", "false");
          assertThat(verdict.why()).as("why %s is %s", key, verdict.verdict()).isNotBlank();
        });
    assertThat(v.entrySet().stream().filter(e -> e.getValue().verdict().equals("false")))
        .as("false alarms: fix lint or the catalog")
        .isEmpty();
  }

  @Test
  void docsCarryTheTablesSummary() throws IOException {
    String summary = summary(JudgedTable.verdicts(table));
    assertThat(Files.readString(DOCS, StandardCharsets.UTF_8))
        .as("docs/lint.md's peer corpus summary; it should be:%n%s", summary)
        .contains(summary);
  }

  @Test
  void everyFileHasQueriesToCheck() {
    results.forEach(
        (file, byRef) ->
            assertThat(byRef.get("catalog").queries()).as("%s has queries", file).isPositive());
  }
}
