package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.report.JsonReport;
import dev.infermon.lint.report.SarifReport;
import dev.infermon.lint.report.TextReport;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The three output forms of the same findings: text lines with positions, JSON with every field,
 * and a SARIF 2.1.0 log whose structure follows the OASIS schema's required properties.
 */
class ReportsTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static LintResult result() {
    String rules =
        "groups:\n"
            + "  - name: g\n"
            + "    rules:\n"
            + "      - alert: Slow\n"
            + "        expr: histogram_quantile(0.95, sum by (le) (rate(vllm:time_to_first_token_seconds_bucket[5m]))) > 2\n"
            + "        for: 10m\n";
    return new LintRun(Reference.catalogOnly(Catalog.builtIn()), LintOptions.DEFAULT)
        .run(
            List.of(
                LintInput.file("rules.yml", rules),
                LintInput.expr("<expr>", "sum(vllm:num_requests_runing)")));
  }

  @Test
  void textHasPositionSeverityCheckAndFix() {
    String text = TextReport.render(result());
    assertThat(text)
        .contains(
            "rules.yml:5:107: error: the quantile of vllm:time_to_first_token_seconds is compared"
                + " with 2")
        .contains("[threshold-between-buckets]")
        .contains("    in group \"g\", rule \"Slow\"")
        .contains("<expr>:1:5: error: vllm:num_requests_runing is not a known metric")
        .contains("fix: did you mean vllm:num_requests_running?")
        .endsWith(
            "2 errors, 0 warnings, 0 infos in 2 inputs (2 queries) checked against catalog\n");
  }

  @Test
  void jsonCarriesEveryField() throws Exception {
    JsonNode j = JSON.readTree(JsonReport.render(result()));
    assertThat(j.get("summary").get("error").asInt()).isEqualTo(2);
    JsonNode f = j.get("findings").get(0);
    assertThat(f.get("check").asText()).isEqualTo("unknown-metric");
    assertThat(f.get("location").get("file").asText()).isEqualTo("<expr>");
    assertThat(f.get("location").get("column").asInt()).isEqualTo(5);
    assertThat(f.get("fix").asText()).isEqualTo("did you mean vllm:num_requests_running?");
  }

  @Test
  void sarifFollowsTheSchemasRequiredStructure() throws Exception {
    JsonNode log = JSON.readTree(SarifReport.render(result(), "0.1.0"));
    assertThat(log.get("version").asText()).isEqualTo("2.1.0");
    assertThat(log.get("$schema").asText()).endsWith("sarif-2.1.0.json");
    assertThat(log.get("runs")).hasSize(1);
    JsonNode run = log.get("runs").get(0);
    JsonNode driver = run.get("tool").get("driver");
    assertThat(driver.get("name").asText()).isNotBlank();
    Set<String> ruleIds = new HashSet<>();
    for (JsonNode r : driver.get("rules")) {
      assertThat(r.get("id").asText()).matches("[a-z-]+");
      assertThat(r.get("shortDescription").get("text").asText()).isNotBlank();
      assertThat(r.get("defaultConfiguration").get("level").asText())
          .isIn("error", "warning", "note");
      ruleIds.add(r.get("id").asText());
    }
    assertThat(ruleIds).hasSize(CheckId.values().length);
    assertThat(run.get("results")).hasSize(2);
    for (JsonNode res : run.get("results")) {
      assertThat(ruleIds).contains(res.get("ruleId").asText());
      assertThat(driver.get("rules").get(res.get("ruleIndex").asInt()).get("id").asText())
          .isEqualTo(res.get("ruleId").asText());
      assertThat(res.get("level").asText()).isIn("error", "warning", "note", "none");
      assertThat(res.get("message").get("text").asText()).isNotBlank();
      JsonNode phys = res.get("locations").get(0).get("physicalLocation");
      assertThat(phys.get("artifactLocation").get("uri").asText()).isNotBlank();
      assertThat(phys.get("region").get("startLine").asInt()).isPositive();
      assertThat(phys.get("region").get("startColumn").asInt()).isPositive();
    }
    JsonNode logical = run.get("results").get(1).get("locations").get(0).get("logicalLocations");
    assertThat(logical.get(0).get("fullyQualifiedName").asText()).isEqualTo("g/Slow");
  }

  /** Every rule's help link is a heading of docs/lint.md, by GitHub's anchor rules. */
  @Test
  void sarifHelpLinksPointAtSectionsThatExist() throws Exception {
    Path doc = Path.of("../docs/lint.md");
    Set<String> anchors = anchors(Files.readAllLines(doc, StandardCharsets.UTF_8));
    JsonNode driver =
        JSON.readTree(SarifReport.render(result(), "0.1.0"))
            .get("runs")
            .get(0)
            .get("tool")
            .get("driver");
    String base = driver.get("informationUri").asText();
    assertThat(base).endsWith("/docs/lint.md");
    assertThat(driver.get("rules")).hasSize(CheckId.values().length);
    for (JsonNode r : driver.get("rules")) {
      String help = r.get("helpUri").asText();
      assertThat(help).startsWith(base + "#");
      assertThat(anchors)
          .as("the section of %s", r.get("id"))
          .contains(help.substring(base.length() + 1));
    }
  }

  /**
   * GitHub's heading anchors: lower case, punctuation but {@code -} and {@code _} dropped, spaces
   * to {@code -}, a repeated anchor suffixed {@code -1}, {@code -2}, ...
   */
  static Set<String> anchors(List<String> lines) {
    Set<String> out = new HashSet<>();
    boolean fence = false;
    for (String l : lines) {
      if (l.startsWith("```")) {
        fence = !fence;
      }
      if (fence || !l.matches("#{1,6} .*")) {
        continue;
      }
      String a =
          l.replaceFirst("#+ ", "")
              .strip()
              .toLowerCase(java.util.Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N} _-]", "")
              .replace(' ', '-');
      String unique = a;
      for (int n = 1; !out.add(unique); n++) {
        unique = a + "-" + n;
      }
    }
    return out;
  }
}
