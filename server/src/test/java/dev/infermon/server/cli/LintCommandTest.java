package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code infermon lint}: the exit code says whether errors were found; the output formats. */
class LintCommandTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new java.io.PrintWriter(new PrintStream(out, true, StandardCharsets.UTF_8), true));
    cl.setErr(new java.io.PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true));
    int code = cl.execute(args);
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void errorsGiveExitCodeOneWithPositionAndFix() throws Exception {
    Path rules = dir.resolve("rules.yml");
    Files.writeString(
        rules,
        "groups:\n  - name: g\n    rules:\n      - record: r\n"
            + "        expr: sum(rate(vllm:prompt_tokens[5m]))\n");
    Run r = run("lint", rules.toString());
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.out())
        .contains(rules + ":5:24: error: vllm:prompt_tokens is a counter exposed as")
        .contains("fix: use vllm:prompt_tokens_total");
  }

  @Test
  void cleanInputGivesExitCodeZero() {
    Run r = run("lint", "--expr", "sum by (model_name) (rate(vllm:prompt_tokens_total[5m]))");
    assertThat(r.code()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).startsWith("0 errors, 0 warnings, 0 infos in 1 input (1 query)");
  }

  @Test
  void sarifAndJsonOutputs() {
    Run sarif = run("lint", "-o", "sarif", "--expr", "vllm:num_requests_runing");
    assertThat(sarif.code()).isEqualTo(1);
    assertThat(sarif.out())
        .contains("\"version\" : \"2.1.0\"")
        .contains("\"ruleId\" : \"unknown-metric\"");
    Run json = run("lint", "-o", "json", "--expr", "vllm:num_requests_running");
    assertThat(json.code()).isZero();
    assertThat(json.out()).contains("\"findings\" : [ ]");
  }

  @Test
  void usageErrorsGiveExitCodeTwo() {
    assertThat(run("lint").code()).isEqualTo(2);
    assertThat(run("lint", "-o", "xml", "--expr", "up").code()).isEqualTo(2);
    assertThat(run("lint", "--no-such-flag").code()).isEqualTo(2);
  }

  @Test
  void sloThresholdsFromTheConfigurationAreChecked() throws Exception {
    Path config = dir.resolve("infermon.yml");
    Files.writeString(
        config,
        "llm:\n  slos:\n    - name: ttft\n      model: m\n      sli: ttft\n      engine: vllm\n"
            + "      threshold: 2s\n      objective: 0.95\n");
    Run r = run("lint", "--config", config.toString());
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.out())
        .contains(config + ":3: error: SLO ttft: the threshold 2s is not a bucket bound")
        .contains("nearest bounds: 2.5s, 1s");
  }
}
