package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code infermon lint}: the exit code says whether errors were found; the output formats; inputs
 * that cannot be linted, named on standard error while the rest is reported.
 */
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

  /**
   * Inputs that cannot be linted: one line each on standard error naming the input and the reason,
   * exit status 2, the rest linted all the same and the report printed in full, JSON and SARIF
   * documents included.
   */
  record Unlintable(String what, String format, String stderr) {
    @Override
    public String toString() {
      return what + " (-o " + format + ")";
    }
  }

  static Stream<Unlintable> unlintable() {
    return Stream.of(
        new Unlintable("missing file", "json", ": cannot read the file: no such file"),
        new Unlintable("missing file", "text", ": cannot read the file: no such file"),
        new Unlintable("unreachable endpoint", "sarif", ": cannot scrape the endpoint: "),
        new Unlintable("unreachable endpoint", "json", ": cannot scrape the endpoint: "),
        new Unlintable("json not a dashboard", "sarif", ":1:1: not a Grafana dashboard: "),
        new Unlintable("json not a dashboard", "json", ":1:1: not a Grafana dashboard: "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unlintable")
  void inputsThatCannotBeLintedAreNamedAndTheRestIsReported(Unlintable u) throws Exception {
    Path good = dir.resolve("good.yml");
    Files.writeString(
        good,
        "groups:\n  - name: g\n    rules:\n      - record: r\n"
            + "        expr: sum(rate(vllm:prompt_tokens[5m]))\n");
    List<String> args = new ArrayList<>(List.of("lint", "-o", u.format()));
    String named;
    switch (u.what()) {
      case "missing file":
        named = dir.resolve("nope.json").toString();
        args.add(named);
        break;
      case "unreachable endpoint":
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
          port = free.getLocalPort();
        }
        named = "http://127.0.0.1:" + port + "/metrics";
        args.addAll(List.of("--endpoint", named));
        break;
      default:
        Path notDashboard = dir.resolve("query-result.json");
        Files.writeString(notDashboard, "{\"status\": \"success\", \"data\": {}}\n");
        named = notDashboard.toString();
        args.add(named);
    }
    args.add(good.toString());
    Run r = run(args.toArray(String[]::new));
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err().lines().toList())
        .as("one line on standard error")
        .singleElement()
        .asString()
        .startsWith("infermon lint: " + named + u.stderr());
    switch (u.format()) {
      case "json":
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertThat(j.get("findings").findValuesAsText("check"))
            .contains("input-error", "counter-without-total");
        break;
      case "sarif":
        JsonNode log = new ObjectMapper().readTree(r.out());
        assertThat(log.get("version").asText()).isEqualTo("2.1.0");
        assertThat(log.get("runs").get(0).get("results").findValuesAsText("ruleId"))
            .contains("input-error", "counter-without-total");
        break;
      default:
        assertThat(r.out())
            .contains(named + ": error: cannot read the file: no such file [input-error]")
            .contains("good.yml:5:24: error: vllm:prompt_tokens is a counter");
    }
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
