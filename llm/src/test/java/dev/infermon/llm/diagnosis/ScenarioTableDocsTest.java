package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.Scenario;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/diagnosis.md's scenario table ("Tested") says what the tests pin: per scenario, the alerts
 * {@link DiagnosisScenariosTest} requires firing (exactly), the row of {@code alert-causes.csv}
 * ({@link AlertCauseScenariosTest} and server's {@code AlertCauseAlertmanagerTest}: its alerts, the
 * optional ones marked {@code ?}, and its cause; {@code —} for a scenario without a row), and the
 * states {@link DiagnosisScenariosTest} requires named. A test's table that changes fails here
 * until the docs say so.
 */
class ScenarioTableDocsTest {
  static final Path DOC = Path.of("..", "docs", "diagnosis.md");
  static final String HEADER = "| scenario | alerts firing at the end (this test, exactly) |";
  static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** The docs' table: scenario -> its cells after the scenario's. */
  static Map<String, String[]> docTable() throws IOException {
    assertThat(DOC).as("run from the llm module").isRegularFile();
    List<String> lines = Files.readAllLines(DOC);
    int at = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(HEADER)) {
        at = i;
      }
    }
    assertThat(at).as(HEADER + " in " + DOC).isNotNegative();
    Map<String, String[]> out = new LinkedHashMap<>();
    for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      String line = lines.get(i);
      String[] cells = line.substring(1, line.length() - 1).split(" \\| ", -1);
      assertThat(cells).as(DOC + ":" + (i + 1)).hasSize(6);
      String scenario = codes(cells[0]).get(0);
      out.put(scenario, java.util.Arrays.copyOfRange(cells, 1, cells.length));
    }
    return out;
  }

  /** The backticked words of a cell, in order. */
  static List<String> codes(String cell) {
    List<String> out = new java.util.ArrayList<>();
    Matcher m = CODE.matcher(cell);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** A set of words as a cell writes it: "none" or "—" for the empty set. */
  static Set<String> cellSet(String cell) {
    String c = cell.trim();
    if (c.equals("none") || c.equals("—")) {
      return Set.of();
    }
    return new TreeSet<>(codes(c));
  }

  /** The words of a test's cell; none for an empty one. */
  static Set<String> words(String cell) {
    return cell.isBlank() ? Set.of() : DiagnosisScenariosTest.words(cell);
  }

  /** {@code DiagnosisScenariosTest}'s rows: scenario -> [alerts, states]. */
  static Map<String, String[]> scenariosTestTable() throws Exception {
    String block =
        DiagnosisScenariosTest.class
            .getDeclaredMethod(
                "everyFiringAlertHasAFinding", String.class, String.class, String.class)
            .getAnnotation(CsvSource.class)
            .textBlock();
    return rows(block, 3);
  }

  /** {@code alert-causes.csv}'s rows: scenario -> [alerts, cause]. */
  static Map<String, String[]> alertCausesTable() throws IOException {
    try (InputStream in =
        ScenarioTableDocsTest.class.getResourceAsStream(AlertCauseScenariosTest.TABLE)) {
      return rows(new String(in.readAllBytes(), StandardCharsets.UTF_8), 3);
    }
  }

  private static Map<String, String[]> rows(String text, int columns) {
    Map<String, String[]> out = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.trim().startsWith("#")) {
        continue;
      }
      String[] cols = line.split("\\|", -1);
      assertThat(cols).as(line).hasSize(columns);
      out.put(cols[0].trim(), new String[] {cols[1].trim(), cols[2].trim()});
    }
    return out;
  }

  @Test
  void theTableIsTheTestsTables() throws Exception {
    Map<String, String[]> doc = docTable();
    Map<String, String[]> pinned = scenariosTestTable();
    Map<String, String[]> causes = alertCausesTable();
    Set<String> scenarios = new TreeSet<>();
    for (Scenario s : Scenario.values()) {
      scenarios.add(s.cliName());
    }
    assertThat(doc.keySet())
        .as("the scenarios of " + DOC)
        .containsExactlyInAnyOrderElementsOf(scenarios);
    for (Map.Entry<String, String[]> e : doc.entrySet()) {
      String s = e.getKey();
      String[] cells = e.getValue();
      String[] test = pinned.get(s);
      assertThat(test).as(s + " in DiagnosisScenariosTest").isNotNull();
      assertThat(cellSet(cells[0]))
          .as(s + ": alerts firing (DiagnosisScenariosTest)")
          .isEqualTo(words(test[0]));
      assertThat(cellSet(cells[3]))
          .as(s + ": states named (DiagnosisScenariosTest)")
          .containsAll(words(test[1]));
      String[] row = causes.get(s);
      if (row == null) {
        assertThat(cells[1].trim() + " " + cells[2].trim())
            .as(s + ": no row in alert-causes.csv")
            .isEqualTo("— —");
      } else {
        assertThat(cellSet(cells[1]))
            .as(s + ": alerts firing (alert-causes.csv)")
            .isEqualTo(words(row[0]));
        assertThat(cellSet(cells[2])).as(s + ": cause (alert-causes.csv)").containsExactly(row[1]);
      }
    }
    assertThat(doc.keySet()).as("every row of alert-causes.csv").containsAll(causes.keySet());
  }
}
