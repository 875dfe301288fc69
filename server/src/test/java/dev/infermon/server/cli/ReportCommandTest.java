package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.server.runtime.Infermon;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code infermon report} against a running {@code infermon serve} holding one vLLM pod's request
 * counter (one request a second for half an hour, by remote write): the JSON and text answers, the
 * progress on stderr, and exit code 2 with a clear message for a bad window or format, an
 * unreachable URL and a model without samples. What the report says about a fleet is the llm
 * module's {@code ReportTest}.
 */
class ReportCommandTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void usageErrorsAndAnUnreachableApiGiveExitCodeTwo() {
    assertThat(LintCommandTest.run("report").code()).isEqualTo(2);
    LintCommandTest.Run bad =
        LintCommandTest.run("report", "--url", "http://127.0.0.1:9", "--window", "a week");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--window");
    assertThat(
            LintCommandTest.run("report", "--url", "http://127.0.0.1:9", "--format", "pdf").code())
        .isEqualTo(2);
    LintCommandTest.Run r = LintCommandTest.run("report", "--url", "http://127.0.0.1:9");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("infermon report: cannot read http://127.0.0.1:9");
  }

  @Test
  void reportsTheTrafficOfARunningInfermonAndRefusesAModelWithoutSamples() throws Exception {
    Infermon m = ServeTestSupport.remoteWriteReceiver(dir, "15s");
    try {
      long end = System.currentTimeMillis() / 60_000 * 60_000;
      Map<String, String> target =
          Map.of(
              "job", "vllm",
              "instance", "10.0.0.7:8000",
              "namespace", "prod",
              "pod", "llama-0",
              "backend", "vllm");
      List<byte[]> series = new ArrayList<>();
      for (int i = 0; i <= 120; i++) {
        series.add(
            LlmApiServeTest.timeSeries(
                LlmApiServeTest.labels(
                    "vllm:request_success_total",
                    target,
                    Map.of("model_name", "llama", "finished_reason", "stop")),
                end - (120 - i) * 15_000L,
                i * 15.0));
      }
      assertThat(ServeTestSupport.remoteWrite(m, LlmApiServeTest.writeRequest(series)).statusCode())
          .isEqualTo(204);
      String url = "http://127.0.0.1:" + m.port();
      String at = Instant.ofEpochMilli(end).toString();
      LintCommandTest.Run json =
          LintCommandTest.run(
              "report", "--url", url, "--window", "20m", "--end", at, "--format", "json");
      assertThat(json.code()).as(json.err()).isZero();
      assertThat(json.err()).contains("infermon report: traffic of every model");
      JsonNode model = JSON.readTree(json.out()).get("models").get(0);
      assertThat(model.get("model").asText()).isEqualTo("llama");
      assertThat(model.get("traffic").get("requests").asDouble()).isCloseTo(1200, within(1e-6));

      LintCommandTest.Run text =
          LintCommandTest.run("report", "--url", url, "--window", "20m", "--end", at);
      assertThat(text.code()).as(text.err()).isZero();
      assertThat(text.out()).contains("== llama\n").contains("  1200 requests, ");

      LintCommandTest.Run none =
          LintCommandTest.run(
              "report", "--url", url, "--window", "20m", "--end", at, "--model", "other");
      assertThat(none.code()).isEqualTo(2);
      assertThat(none.err()).contains("--model: no samples for model \"other\" in the window");
    } finally {
      m.close();
    }
  }

  /**
   * The issue's own example, {@code --window 7d}: a week of one pod's request counter, a sample a
   * minute (10 a minute), reported in JSON, text and Markdown; the week's requests are the
   * counter's gain over it, and the window is the week up to {@code --end}.
   */
  @Test
  void aWeekWindowReportsTheWeeksTrafficInEveryFormat() throws Exception {
    Infermon m = ServeTestSupport.remoteWriteReceiver(dir, "1m");
    try {
      long end = System.currentTimeMillis() / 60_000 * 60_000;
      int minutes = (int) Duration.ofDays(7).toMinutes();
      Map<String, String> target =
          Map.of(
              "job", "vllm",
              "instance", "10.0.0.7:8000",
              "namespace", "prod",
              "pod", "llama-0",
              "backend", "vllm");
      List<byte[]> series = new ArrayList<>();
      // from a minute before the week's start, so the week's first step has its gain
      for (int i = 0; i <= minutes + 1; i++) {
        series.add(
            LlmApiServeTest.timeSeries(
                LlmApiServeTest.labels(
                    "vllm:request_success_total",
                    target,
                    Map.of("model_name", "llama", "finished_reason", "stop")),
                end - (minutes + 1 - i) * 60_000L,
                i * 10.0));
      }
      assertThat(ServeTestSupport.remoteWrite(m, LlmApiServeTest.writeRequest(series)).statusCode())
          .isEqualTo(204);
      String url = "http://127.0.0.1:" + m.port();
      String at = Instant.ofEpochMilli(end).toString();
      LintCommandTest.Run json =
          LintCommandTest.run(
              "report", "--url", url, "--window", "7d", "--end", at, "--format", "json");
      assertThat(json.code()).as(json.err()).isZero();
      JsonNode r = JSON.readTree(json.out());
      assertThat(r.get("end").asDouble() - r.get("start").asDouble())
          .isEqualTo(Duration.ofDays(7).toSeconds());
      JsonNode model = r.get("models").get(0);
      assertThat(model.get("model").asText()).isEqualTo("llama");
      assertThat(model.get("traffic").get("requests").asDouble())
          .isCloseTo(minutes * 10.0, within(1e-6));
      for (String[] f : new String[][] {{"text", "== llama\n"}, {"markdown", "## llama"}}) {
        LintCommandTest.Run out =
            LintCommandTest.run(
                "report", "--url", url, "--window", "7d", "--end", at, "--format", f[0]);
        assertThat(out.code()).as(f[0] + ": " + out.err()).isZero();
        assertThat(out.out()).as(f[0]).contains(f[1]).contains(minutes * 10 + " requests");
      }
    } finally {
      m.close();
    }
  }
}
