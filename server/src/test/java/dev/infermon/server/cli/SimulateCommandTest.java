package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code infermon simulate}: flags become a fleet, configs print, the fleet serves and stops. */
class SimulateCommandTest {
  private static String[] run(String... args) {
    CommandLine cl = new CommandLine(new SimulateCommand());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void printsAPrometheusConfigWithOnePortPerTarget() {
    String[] r =
        run(
            "--vllm-pods",
            "1",
            "--sglang-pods",
            "1",
            "--no-pd",
            "--listen",
            "127.0.0.1:19800",
            "--print-prometheus-config");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1])
        .contains("  - job_name: inference\n")
        .contains("      - targets: ['127.0.0.1:19801']\n")
        .contains("  - job_name: dcgm\n")
        .contains("          backend: \"sglang\"\n");
  }

  @Test
  void printsFileSdForTheSharedPortLayout() {
    String[] r = run("--single-port", "--listen", "127.0.0.1:19900", "--print-file-sd");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("\"targets\": [\"127.0.0.1:19900\"]").doesNotContain("19901");
  }

  @Test
  void servesTheFleetAndPrintsItsInventory() {
    String[] r =
        run(
            "--vllm-pods",
            "1",
            "--legacy-vllm-pods",
            "0",
            "--sglang-pods",
            "0",
            "--sglang-gateway-pods",
            "0",
            "--no-pd",
            "--listen",
            "127.0.0.1:0",
            "--warmup",
            "1m",
            "--run-for",
            "300ms");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1])
        .contains("infermon simulate: 2 targets")
        .contains("http://127.0.0.1:")
        .contains("backend=vllm")
        .contains("backend=dcgm");
  }

  @Test
  void badFlagsAreUsageErrors() {
    String[] scenario = run("--scenario", "meltdown");
    assertThat(scenario[0]).isEqualTo("2");
    assertThat(scenario[2]).contains("unknown scenario: \"meltdown\"");
    String[] listen = run("--listen", "9400", "--print-file-sd");
    assertThat(listen[0]).isEqualTo("2");
    assertThat(listen[2]).contains("--listen must be host:port");
    String[] duration = run("--warmup", "soon", "--print-file-sd");
    assertThat(duration[0]).isEqualTo("2");
    assertThat(duration[2]).contains("not a duration: \"soon\"");
  }
}
