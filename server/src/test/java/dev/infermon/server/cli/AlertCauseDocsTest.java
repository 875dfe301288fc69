package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.llm.diagnosis.State;
import dev.infermon.server.cli.AlertCauseAlertmanagerTest.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/alerting.md's quotes of what Alertmanager received ("What Alertmanager receives", from a run
 * of {@link AlertCauseAlertmanagerTest}) agree with the table that test and llm's {@code
 * AlertCauseScenariosTest} read: every row has a quote of its first alert on its model naming the
 * row's cause; every quote is of an alert its row lets fire, an alert the row requires names the
 * row's cause, and its evidence is of the model and of the pod the cause names. A row whose cause
 * changes, or a new row, fails here until the docs quote a run that shows it.
 */
class AlertCauseDocsTest {
  static final Path DOC = Path.of("..", "docs", "alerting.md");
  static final String SECTION = "### What Alertmanager receives";

  /** {@code saturated on sglang-saturated-0: ...}: the state named and where. */
  static final Pattern CAUSE = Pattern.compile("([a-z-]+) on (\\S+): .+");

  /** {@code signal {labels} = value at instant (note)}, one fact of the evidence. */
  static final Pattern FACT =
      Pattern.compile("(.+?) (\\{[^}]*\\}) = (\\S+) at (\\S+Z)(?: \\(([^)]*)\\))?");

  private final ObjectMapper json = new ObjectMapper();

  @Test
  void everyRowHasAQuotedAlertNamingItsCause() throws Exception {
    List<Row> rows = AlertCauseAlertmanagerTest.rows();
    List<JsonNode> quotes = quotes();
    assertThat(quotes).as(SECTION + " in " + DOC).isNotEmpty();
    Set<String> states = Arrays.stream(State.values()).map(State::id).collect(Collectors.toSet());
    Set<String> quotedFirst = new HashSet<>();
    for (JsonNode q : quotes) {
      String alert = q.at("/labels/alertname").asText();
      String model = q.at("/labels/model_name").asText();
      String what = alert + " on " + model + " in " + DOC;
      Row row =
          rows.stream()
              .filter(r -> r.model().equals(model))
              .findFirst()
              .orElseThrow(() -> new AssertionError(what + ": no row of the table serves it"));
      assertThat(q.at("/labels/namespace").asText()).as(what).isEqualTo("inference");
      assertThat(row.alerts().contains(alert) || row.optional().contains(alert))
          .as(what + ": an alert its row lets fire, " + row)
          .isTrue();
      Matcher cause = CAUSE.matcher(q.at("/annotations/cause").asText());
      assertThat(cause.matches()).as(what + ": cause " + q.at("/annotations/cause")).isTrue();
      assertThat(states).as(what + ": a state of diagnosis").contains(cause.group(1));
      if (row.alerts().contains(alert)) {
        assertThat(cause.group(1)).as(what + ": the row's cause").isEqualTo(row.cause());
      }
      checkEvidence(what, q.at("/annotations/cause_evidence").asText(), model, cause.group(2));
      if (alert.equals(row.alerts().get(0))) {
        quotedFirst.add(row.model());
      }
    }
    assertThat(quotedFirst)
        .as("rows whose first alert is quoted")
        .containsExactlyInAnyOrderElementsOf(rows.stream().map(Row::model).toList());
  }

  /** Every fact is of the alert's model and the pod its cause names, at a real time. */
  private static void checkEvidence(String what, String evidence, String model, String pod) {
    String[] facts = evidence.split("; ");
    assertThat(facts).as(what + ": evidence").isNotEmpty();
    for (String fact : facts) {
      Matcher m = FACT.matcher(fact);
      assertThat(m.matches()).as(what + ": a fact, " + fact).isTrue();
      assertThat(m.group(2))
          .as(what + ": the series of " + fact)
          .contains("model_name=\"" + model + "\"")
          .contains("pod=\"" + pod + "\"");
      Double.parseDouble(m.group(3));
      Instant.parse(m.group(4));
    }
  }

  /** The JSON blocks of the section, each one alert as quoted. */
  private List<JsonNode> quotes() throws Exception {
    assertThat(DOC).as("run from the server module").isRegularFile();
    String doc = Files.readString(DOC);
    int start = doc.indexOf(SECTION);
    assertThat(start).as(SECTION + " in " + DOC).isNotNegative();
    int end = doc.indexOf("\n## ", start);
    String section = doc.substring(start, end < 0 ? doc.length() : end);
    List<JsonNode> out = new ArrayList<>();
    Matcher m = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(section);
    while (m.find()) {
      out.add(json.readTree(m.group(1)));
    }
    return out;
  }
}
