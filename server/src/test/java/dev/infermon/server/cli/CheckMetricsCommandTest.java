package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.Main;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code infermon check metrics}: errors as FILE:LINE:COLUMN, a summary, exit 0 / 1 / 2, through
 * the real command line.
 */
class CheckMetricsCommandTest {
  @TempDir Path dir;

  record Result(int code, String out, String err) {}

  private static Result run(String... args) {
    CommandLine cl = new CommandLine(new Main());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  private Path page(String name, String content) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  private static final String VLLM_TEXT =
      "# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
          + "# TYPE vllm:num_requests_running gauge\n"
          + "vllm:num_requests_running{engine=\"0\",model_name=\"Qwen/Qwen3-0.6B\"} 0.0\n"
          + "# HELP vllm:prompt_tokens_total Number of prefill tokens processed.\n"
          + "# TYPE vllm:prompt_tokens_total counter\n"
          + "vllm:prompt_tokens_total{engine=\"0\",model_name=\"Qwen/Qwen3-0.6B\"} 1234.0\n";

  private static final String VLLM_OPENMETRICS =
      "# HELP vllm:prompt_tokens Number of prefill tokens processed.\n"
          + "# TYPE vllm:prompt_tokens counter\n"
          + "vllm:prompt_tokens_total{engine=\"0\",model_name=\"Qwen/Qwen3-0.6B\"} 1234.0\n"
          + "# EOF\n";

  @Test
  void aValidTextPageExitsZeroWithASummary() throws IOException {
    Path p = page("vllm.prom", VLLM_TEXT);
    Result r = run("check", "metrics", p.toString());
    assertThat(r.code()).isEqualTo(0);
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .isEqualTo(p + ": OK (text): 2 families with metadata, 2 samples, 0 errors\n");
  }

  @Test
  void anOpenMetricsPageIsRecognisedByItsEof() throws IOException {
    Path p = page("vllm.om", VLLM_OPENMETRICS);
    Result r = run("check", "metrics", p.toString());
    assertThat(r.code()).isEqualTo(0);
    assertThat(r.out())
        .isEqualTo(p + ": OK (OpenMetrics): 1 families with metadata, 1 samples, 0 errors\n");
  }

  @Test
  void everyBadLineIsReportedWithLineAndColumn() throws IOException {
    Path p =
        page(
            "bad.prom",
            "a 1\n"
                + "b{x=\"1\",x=\"2\"} 1\n"
                + "c 1\n"
                + "d not-a-number\n"
                + "sglang:num_paused_reqs{dp_rank=\"4\",model_name=\"de\n");
    Result r = run("check", "metrics", "--format", "text", p.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            p
                + ":2:9: duplicate label name \"x\"\n"
                + p
                + ":4:3: invalid value \"not-a-number\"\n"
                + p
                + ":5:50: label value \"de\" is not terminated: the line ends inside the quotes\n");
    assertThat(r.out())
        .isEqualTo(p + ": FAILED (text): 0 families with metadata, 2 samples, 3 errors\n");
  }

  @Test
  void strictByDefaultLenientOnRequest() throws IOException {
    Path p =
        page("ray.prom", "# HELP a x\n# TYPE a gauge\na 1\nb 2\n# HELP a x\n# TYPE a gauge\na 1\n");
    Result strict = run("check", "metrics", p.toString());
    assertThat(strict.code()).isEqualTo(1);
    assertThat(strict.err())
        .isEqualTo(
            p + ":5:1: second HELP line for \"a\"\n" + p + ":6:1: second TYPE line for \"a\"\n");
    Result lenient = run("check", "metrics", "--lenient", p.toString());
    assertThat(lenient.code()).isEqualTo(0);
    assertThat(lenient.out()).contains(": OK (text): 1 families with metadata, 3 samples");
  }

  @Test
  void theFormatCanBeForced() throws IOException {
    Path p = page("text-as-om.prom", VLLM_TEXT);
    Result r = run("check", "metrics", "--format", "openmetrics", p.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).endsWith(":7:1: the page does not end with \"# EOF\"\n");
  }

  @Test
  void readsStandardInputWithoutAFile() {
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream(VLLM_OPENMETRICS.getBytes(StandardCharsets.UTF_8)));
      Result r = run("check", "metrics");
      assertThat(r.code()).isEqualTo(0);
      assertThat(r.out())
          .isEqualTo("<stdin>: OK (OpenMetrics): 1 families with metadata, 1 samples, 0 errors\n");
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void usageErrorsExitTwo() {
    Result missing = run("check", "metrics", dir.resolve("nope.prom").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).isEqualTo(dir.resolve("nope.prom") + ": no such file\n");
    Result badFormat = run("check", "metrics", "--format", "xml");
    assertThat(badFormat.code()).isEqualTo(2);
    assertThat(badFormat.err()).contains("Invalid value for option '--format'");
  }

  @Test
  void checkWithoutASubcommandListsTheChecks() {
    Result r = run("check");
    assertThat(r.code()).isEqualTo(0);
    assertThat(r.out()).contains("Usage: infermon check").contains("metrics");
  }
}
