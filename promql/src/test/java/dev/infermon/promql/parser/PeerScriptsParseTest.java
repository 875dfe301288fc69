package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code eval} expression in Prometheus's promqltest scripts parses, unless the script
 * expects it to fail ({@code eval_fail}, {@code expect fail}), in which case it may fail to parse.
 * Reads the scripts from {@code ../shared} (system property {@code infermon.shared.dir}) and skips,
 * saying so, where that is absent. Scripts made of experimental syntax the parser rejects by design
 * are skipped with the reason below.
 */
class PeerScriptsParseTest {
  /** Scripts of experimental syntax, and why they are skipped. */
  static final Map<String, String> SKIPPED_FILES =
      Map.of(
          "duration_expression.test",
          "experimental duration arithmetic ([5m+1m], step(), min_of) is rejected by design",
          "fill-modifier.test",
          "experimental binop fill modifiers (fill, fill_left, fill_right) are rejected by design",
          "extended_vectors.test",
          "experimental anchored/smoothed range selectors are rejected by design");

  /** Syntax inside otherwise-supported scripts that is out of scope, and why. */
  static final Map<String, String> SKIPPED_SYNTAX =
      Map.of(
          "</", "native-histogram trim operator (native histograms are out of scope)",
          ">/", "native-histogram trim operator (native histograms are out of scope)");

  private static final Pattern INSTANT =
      Pattern.compile(
          "^eval(?:_(fail|warn|ordered|info))?\\s+instant\\s+(?:at\\s+(\\S+)\\s+)?(.+)$");
  private static final Pattern RANGE =
      Pattern.compile(
          "^eval(?:_(fail|warn|info))?\\s+range\\s+from\\s+(\\S+)\\s+to\\s+(\\S+)\\s+step\\s+(\\S+)\\s+(.+)$");

  /** One eval line: where it is, the expression, and whether the script expects failure. */
  record Eval(String file, int line, String expr, boolean mayFail) {}

  @TestFactory
  Stream<DynamicTest> everyEvalExpressionParses() throws IOException {
    Path dir = sharedDir().resolve("peer-suites/prometheus/promqltest");
    assumeThat(Files.isDirectory(dir))
        .as("Prometheus's promqltest scripts not found at %s; skipping", dir)
        .isTrue();
    List<Eval> evals = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.sorted()::iterator) {
        String name = f.getFileName().toString();
        if (name.endsWith(".test") && !SKIPPED_FILES.containsKey(name)) {
          evals.addAll(evals(name, Files.readAllLines(f, StandardCharsets.UTF_8)));
        }
      }
    }
    assertThat(evals).as("eval lines found").hasSizeGreaterThan(1000);
    return evals.stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.file() + ":" + e.line() + " " + e.expr(), () -> check(e)));
  }

  private static void check(Eval e) {
    for (Map.Entry<String, String> skip : SKIPPED_SYNTAX.entrySet()) {
      assumeThat(e.expr()).as("skipped: %s", skip.getValue()).doesNotContain(skip.getKey());
    }
    if (e.mayFail()) {
      try {
        PromqlParser.parse(e.expr());
      } catch (ParseException expected) {
        // The script expects this query to fail; failing to parse is one way to.
      }
      return;
    }
    Expr parsed = PromqlParser.parse(e.expr());
    // And the printed form means the same: it parses back to the same tree.
    assertThat(PromqlParser.parse(Printer.print(parsed))).isEqualTo(parsed);
  }

  static List<Eval> evals(String file, List<String> lines) {
    List<Eval> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      String expr;
      boolean fail;
      Matcher m = INSTANT.matcher(line);
      Matcher r = RANGE.matcher(line);
      if (m.matches()) {
        expr = m.group(3);
        fail = "fail".equals(m.group(1));
      } else if (r.matches()) {
        expr = r.group(5);
        fail = "fail".equals(r.group(1));
      } else {
        continue;
      }
      for (int j = i + 1; j < lines.size() && !lines.get(j).isBlank(); j++) {
        String next = lines.get(j).strip();
        if (next.startsWith("eval") || next.startsWith("load") || next.startsWith("clear")) {
          break;
        }
        if (next.startsWith("expect fail")) {
          fail = true;
        }
      }
      out.add(new Eval(file, i + 1, expr, fail));
    }
    return out;
  }

  private static Path sharedDir() {
    String dir = System.getProperty("infermon.shared.dir");
    return dir == null ? Paths.get("../shared").toAbsolutePath().normalize() : Paths.get(dir);
  }
}
