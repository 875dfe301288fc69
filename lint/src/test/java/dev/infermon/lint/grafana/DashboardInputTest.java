package dev.infermon.lint.grafana;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.LintQuery;
import dev.infermon.lint.Location;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How findings name a dashboard's panels, and where in the file an expression's characters are:
 * each row a panel list and what its first target's findings will say.
 */
class DashboardInputTest {
  @ParameterizedTest(name = "{2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        // panels JSON | expected panel name | what the row shows
        "{'id': 3, 'type': 'timeseries', 'title': 'TTFT'}"
            + " | TTFT | a titled panel by its title",
        "{'id': 7, 'type': 'timeseries'}"
            + " | untitled timeseries panel #7 | an untitled panel by type and id",
        "{'type': 'stat', 'title': '  '}"
            + " | untitled stat panel at index 0 | without an id, by its index",
        "{'type': 'row', 'title': 'GPUs', 'collapsed': true, 'panels': [{'id': 9, 'type': 'gauge'}]}"
            + " | GPUs / untitled gauge panel #9 | a collapsed row's nested panel under the row",
        "{'type': 'row', 'title': 'GPUs', 'panels': []}, {'id': 4, 'type': 'graph', 'title': 'Util'}"
            + " | GPUs / Util | an expanded row's following panel under the row",
      })
  void panelsAreNamedSoAFindingLeadsToThem(String panels, String name, String what) {
    String json =
        ("{'title': 'd', 'panels': [" + panels + "]}")
            .replace(
                "'type': 'timeseries'",
                "'type': 'timeseries', 'targets': [{'refId': 'A', 'expr': 'up'}]")
            .replace("'type': 'stat'", "'type': 'stat', 'targets': [{'refId': 'A', 'expr': 'up'}]")
            .replace(
                "'type': 'gauge'", "'type': 'gauge', 'targets': [{'refId': 'A', 'expr': 'up'}]")
            .replace(
                "'type': 'graph'", "'type': 'graph', 'targets': [{'refId': 'A', 'expr': 'up'}]")
            .replace('\'', '"');
    DashboardInput d = DashboardInput.read("d.json", json);
    assertThat(d.problems()).isEmpty();
    assertThat(d.queries()).hasSize(1);
    assertThat(d.queries().get(0).start().panel()).as(what).isEqualTo(name);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // an expr as written in the JSON file | the character to locate | its column in the file
        "up{job=\\\"a\\\"} > 2 | 2 | 66",
        "up > 2 | 2 | 55",
        "rate(x{l=\\\"\\u00e9\\\"}[5m]) > 3 | 3 | 78",
      })
  void findingsInsideAnExpressionPointAtTheirCharacterDespiteEscapes(
      String written, String target, int column) {
    String json =
        "{\"panels\": [{\"title\": \"p\", \"targets\": [{\"expr\": \"" + written + "\"}]}]}";
    DashboardInput d = DashboardInput.read("d.json", json);
    LintQuery q = d.queries().get(0);
    Location at = q.at(q.expr().lastIndexOf(target));
    assertThat(at.line()).isEqualTo(1);
    assertThat(at.column()).as("column of %s in %s", target, json).isEqualTo(column);
    assertThat(json.charAt(column - 1)).isEqualTo(target.charAt(0));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {"[] | not a JSON object", "{\"data\": {}} | without panels or rows"})
  void jsonThatIsNotADashboardIsAnInputError(String json, String why) {
    DashboardInput d = DashboardInput.read("x.json", json);
    assertThat(d.queries()).isEmpty();
    assertThat(d.problems())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.check()).isEqualTo(CheckId.INPUT_ERROR);
              assertThat(f.message()).startsWith("not a Grafana dashboard: ").contains(why);
            });
  }
}
