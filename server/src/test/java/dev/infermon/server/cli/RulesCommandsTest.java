package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code infermon check rules} and {@code infermon test rules}: promtool's output and exit codes.
 */
class RulesCommandsTest {
  @TempDir Path dir;

  static final String RULES =
      "groups:\n  - name: g\n    rules:\n      - record: job:up:sum\n        expr: sum by (job) (up)\n"
          + "      - alert: Down\n        expr: up == 0\n        for: 2m\n"
          + "        annotations:\n          summary: '{{ $labels.instance }} down'\n";

  record Run(int code, String out, String err) {}

  private Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void checkRulesReportsSuccessAndFailures() throws Exception {
    Path good = Files.writeString(dir.resolve("good.yml"), RULES);
    Path bad =
        Files.writeString(
            dir.resolve("bad.yml"),
            "groups:\n  - name: g\n    rules:\n      - record: a\n        expr: sum(\n");
    Run ok = run("check", "rules", good.toString());
    assertThat(ok.code()).isZero();
    assertThat(ok.out()).isEqualTo("Checking " + good + "\n  SUCCESS: 2 rules found\n\n");
    Run failed = run("check", "rules", good.toString(), bad.toString());
    assertThat(failed.code()).isEqualTo(1);
    assertThat(failed.err())
        .isEqualTo(
            "  FAILED:\n"
                + bad
                + ": 5:15: group \"g\", rule 1, \"a\": could not parse expression: 1:5: parse error:"
                + " unclosed left parenthesis\n");
  }

  /** The same rules as a prometheus-operator resource, the way its users keep them. */
  static final String PROMETHEUS_RULE =
      "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: r\nspec:\n"
          + RULES.replaceAll("(?m)^", "  ");

  @Test
  void prometheusRuleResourcesAreCheckedAndTestedLikeRuleFiles() throws Exception {
    Path pr = Files.writeString(dir.resolve("pr.yaml"), PROMETHEUS_RULE);
    Run ok = run("check", "rules", pr.toString());
    assertThat(ok.err()).isEmpty();
    assertThat(ok.code()).isZero();
    assertThat(ok.out()).isEqualTo("Checking " + pr + "\n  SUCCESS: 2 rules found\n\n");

    Path bad =
        Files.writeString(dir.resolve("bad.yaml"), PROMETHEUS_RULE.replace("up == 0", "up =="));
    Run failed = run("check", "rules", bad.toString());
    assertThat(failed.code()).isEqualTo(1);
    assertThat(failed.err())
        .as("the line and column in the resource")
        .startsWith(
            "  FAILED:\n" + bad + ": 12:17: group \"g\", rule 2, \"Down\": could not parse");

    Path t =
        Files.writeString(
            dir.resolve("t.yml"),
            "rule_files: [pr.yaml]\ntests:\n  - interval: 1m\n    input_series:\n"
                + "      - series: 'up{job=\"a\", instance=\"x\"}'\n        values: '0x5'\n"
                + "    alert_rule_test:\n      - eval_time: 3m\n        alertname: Down\n"
                + "        exp_alerts:\n          - exp_labels: {job: a, instance: x}\n"
                + "            exp_annotations: {summary: 'x down'}\n");
    Run tested = run("test", "rules", t.toString());
    assertThat(tested.err()).isEmpty();
    assertThat(tested.out()).isEqualTo("Unit Testing:  " + t + "\n  SUCCESS\n\n");
    assertThat(tested.code()).isZero();
  }

  @Test
  void infermonsOwnPrometheusRuleExportPassesCheckRules() throws Exception {
    Run export = run("export", "prometheusrule", "--namespace", "monitoring");
    assertThat(export.code()).as(export.err()).isZero();
    Path pr = Files.writeString(dir.resolve("infermon-llm.yaml"), export.out());
    Run ok = run("check", "rules", pr.toString());
    assertThat(ok.err()).isEmpty();
    assertThat(ok.out()).matches("(?s)Checking .*\n  SUCCESS: [1-9][0-9]* rules found\n\n");
    assertThat(ok.code()).isZero();
  }

  @Test
  void testRulesRunsPromtoolFilesOnAnEmbeddedTsdb() throws Exception {
    Files.writeString(dir.resolve("r.yml"), RULES);
    Path t =
        Files.writeString(
            dir.resolve("t.yml"),
            "rule_files: [r.yml]\ntests:\n  - interval: 1m\n    input_series:\n"
                + "      - series: 'up{job=\"a\", instance=\"x\"}'\n        values: '0x5'\n"
                + "    alert_rule_test:\n      - eval_time: 3m\n        alertname: Down\n"
                + "        exp_alerts:\n          - exp_labels: {job: a, instance: x}\n"
                + "            exp_annotations: {summary: 'x down'}\n"
                + "    promql_expr_test:\n      - expr: job:up:sum\n        eval_time: 1m\n"
                + "        exp_samples:\n          - labels: 'job:up:sum{job=\"a\"}'\n            value: 0\n");
    Run ok = run("test", "rules", t.toString());
    assertThat(ok.err()).isEmpty();
    assertThat(ok.code()).isZero();
    assertThat(ok.out()).isEqualTo("Unit Testing:  " + t + "\n  SUCCESS\n\n");

    Path failing =
        Files.writeString(
            dir.resolve("f.yml"),
            "rule_files: [r.yml]\ntests:\n  - input_series:\n"
                + "      - series: 'up{job=\"a\", instance=\"x\"}'\n        values: '0x5'\n"
                + "    promql_expr_test:\n      - expr: job:up:sum\n        eval_time: 1m\n"
                + "        exp_samples:\n          - labels: 'job:up:sum{job=\"a\"}'\n            value: 2\n");
    Run bad = run("test", "rules", failing.toString());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err())
        .isEqualTo(
            "  FAILED:\n    expr: \"job:up:sum\", time: 1m,\n"
                + "        exp: {__name__=\"job:up:sum\", job=\"a\"} 2E+00\n"
                + "        got: {__name__=\"job:up:sum\", job=\"a\"} 0E+00\n");
  }
}
