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
