package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.simulator.sglang.SglangRelease;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.vllm.VllmSleep;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code infermon simulate}: flags become a fleet, configs print, the fleet serves and stops; with
 * {@code --replay}, captures serve at the printed URLs with their labels, and bad replays are usage
 * errors naming the file, line or label.
 */
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
    // one address for all: each target names its own instance, as the routers know the pod
    assertThat(r[1]).contains("\"instance\": \"vllm-llama-3-1-8b-instruct-0:19900\"");
    String[] yaml =
        run("--single-port", "--listen", "127.0.0.1:19900", "--print-prometheus-config");
    assertThat(yaml[1])
        .contains("          instance: \"vllm-llama-3-1-8b-instruct-0:19900\"\n")
        .contains("    metrics_path: /pods/vllm-llama-3-1-8b-instruct-0/metrics\n");
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
    String[] mig = run("--dcgm-mig", "5g.50gb", "--print-file-sd");
    assertThat(mig[0]).isEqualTo("2");
    assertThat(mig[2]).contains("MIG profile must be one of").contains("5g.50gb");
    String[] draMig = run("--dcgm-mig", "1g.10gb", "--dcgm-dra", "--print-file-sd");
    assertThat(draMig[0]).isEqualTo("2");
    assertThat(draMig[2]).contains("DRA with MIG is not simulated");
  }

  @Test
  void migAndDraFlagsReachTheFleet() {
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs("--dcgm-mig", "2g.20gb");
    assertThat(c.config().dcgmAttribution().migProfile()).isEqualTo("2g.20gb");
    SimulateCommand d = new SimulateCommand();
    new CommandLine(d).parseArgs("--dcgm-dra");
    assertThat(d.config().dcgmAttribution().dra()).isTrue();
  }

  @Test
  void sglangReleaseReachesTheFleetAndABadOneIsAUsageError() {
    SimulateCommand plain = new SimulateCommand();
    new CommandLine(plain).parseArgs();
    assertThat(plain.config().sglangRelease()).isEqualTo(SglangRelease.V0_5_9);
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs("--sglang-release", "0.5.11");
    assertThat(c.config().sglangRelease()).isEqualTo(SglangRelease.V0_5_11);
    String[] bad = run("--sglang-release", "0.4.1");
    assertThat(bad[0]).isEqualTo("2");
    assertThat(bad[2]).contains("unknown SGLang release: \"0.4.1\"");
  }

  @Test
  void kvFlagsReachTheFleet() {
    SimulateCommand plain = new SimulateCommand();
    new CommandLine(plain).parseArgs();
    assertThat(plain.config().nixl()).isTrue();
    assertThat(plain.config().kvCacheMetrics()).isFalse();
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs("--kv-cache-metrics", "--no-nixl");
    assertThat(c.config().kvCacheMetrics()).isTrue();
    assertThat(c.config().nixl()).isFalse();
  }

  @Test
  void amdNodesGetAmdsExporterInTheirOwnJob() {
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs("--amd-nodes", "1");
    assertThat(c.config().amdNodes()).isEqualTo(1);
    String[] r =
        run(
            "--vllm-pods",
            "1",
            "--sglang-pods",
            "0",
            "--sglang-gateway-pods",
            "0",
            "--no-pd",
            "--nodes",
            "2",
            "--amd-nodes",
            "1",
            "--listen",
            "127.0.0.1:19700",
            "--print-prometheus-config");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1])
        .contains("  - job_name: amdgpu\n")
        .contains("          backend: \"amdgpu\"\n")
        .contains("  - job_name: dcgm\n");
    String[] bad = run("--amd-nodes", "1", "--dcgm-mig", "1g.10gb", "--print-file-sd");
    assertThat(bad[0]).isEqualTo("2");
    assertThat(bad[2]).contains("amdNodes needs whole GPUs");
  }

  @Test
  void sleepFlagsReachTheFleet() {
    SimulateCommand plain = new SimulateCommand();
    new CommandLine(plain).parseArgs();
    assertThat(plain.config().vllmSleep().any()).isFalse();
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c)
        .parseArgs(
            "--sleeping-vllm-pods",
            "2",
            "--sleep-level",
            "2",
            "--sleep-after",
            "90s",
            "--sleep-for",
            "5m");
    assertThat(c.config().vllmSleep()).isEqualTo(new VllmSleep(2, 2, 90, 300));
    SimulateCommand bad = new SimulateCommand();
    new CommandLine(bad).parseArgs("--sleeping-vllm-pods", "1", "--sleep-level", "3");
    assertThatThrownBy(bad::config).hasMessageContaining("sleep level");
  }

  @Test
  void dynamoPodsReachTheFleetBehindDynamosFrontend() {
    SimulateCommand plain = new SimulateCommand();
    new CommandLine(plain).parseArgs();
    assertThat(plain.config().dynamoPods()).isZero();
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs("--dynamo-pods", "3");
    assertThat(c.config().dynamoPods()).isEqualTo(3);
    SimulateCommand all = new SimulateCommand();
    new CommandLine(all).parseArgs("--engines", "all", "--dynamo-pods", "3");
    assertThat(all.config().dynamoPods()).as("--engines all keeps a larger count").isEqualTo(3);
    String[] r =
        run(
            "--dynamo-pods",
            "2",
            "--router",
            "dynamo",
            "--listen",
            "127.0.0.1:19700",
            "--print-file-sd");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1])
        .contains("\"pod\": \"dynamo-vllm-qwen3-8b-worker-1\"")
        .doesNotContain("dynamo-vllm-qwen3-8b-worker-2")
        .contains("\"backend\": \"dynamo\"");
    String[] bad = run("--dynamo-pods", "-1", "--print-file-sd");
    assertThat(bad[0]).isEqualTo("2");
    assertThat(bad[2]).contains("dynamoPods");
    assertThat(run("--help")[1]).contains("--dynamo-pods=<dynamoPods>");
  }

  @Test
  void routerServesItsPageInFrontOfThePods() {
    String[] r = run("--router", "llm-d", "--listen", "127.0.0.1:19700", "--print-file-sd");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("\"backend\": \"llm-d\"").contains("\"pod\": \"llm-d-router-0\"");
    String[] none = run("--listen", "127.0.0.1:19700", "--print-file-sd");
    assertThat(none[1]).doesNotContain("router-0");
    String[] bad = run("--router", "envoy", "--print-file-sd");
    assertThat(bad[0]).isEqualTo("2");
    assertThat(bad[2])
        .contains(
            "--router: unknown router \"envoy\" (one of none, production-stack, llm-d, smg, dynamo)");
  }

  @Test
  void severalRoutersEachServeTheirPageAndOneFrontingNothingIsAUsageError() {
    String[] two = run("--router", "llm-d,smg", "--listen", "127.0.0.1:19700", "--print-file-sd");
    assertThat(two[0]).isEqualTo("0");
    assertThat(two[1])
        .contains("\"pod\": \"llm-d-router-0\"")
        .contains("\"pod\": \"smg-router-0\"");
    String[] bad = run("--router", "smg,envoy", "--print-file-sd");
    assertThat(bad[0]).isEqualTo("2");
    assertThat(bad[2])
        .contains(
            "--router: unknown router \"envoy\" (one of none, production-stack, llm-d, smg, dynamo)");
    String[] idle =
        run(
            "--engines",
            "vllm",
            "--router",
            "production-stack,llm-d",
            "--listen",
            "127.0.0.1:19700",
            "--print-file-sd");
    assertThat(idle[0]).isNotEqualTo("0");
    assertThat(idle[2]).contains("router llm-d would front no pod of this fleet");
  }

  /** A capture written where the command can read it. */
  private static Path capture(Path dir, String name) throws Exception {
    Captures.Entry e = Captures.get(name);
    Path file = dir.resolve(e.fileName());
    Files.write(file, e.bytes());
    return file;
  }

  @Test
  void printsThePrometheusConfigOfReplayedCaptures(@TempDir Path dir) throws Exception {
    Path vllm = capture(dir, "vllm-0.4.3.txt");
    Path dcgm = capture(dir, "lke-rtx4000ada-pod-attributed-xid.prom");
    String[] r =
        run(
            "--replay",
            vllm + ",pod=opt-0,workload_name=opt,namespace=team-a",
            "--replay",
            dcgm.toString(),
            "--listen",
            "127.0.0.1:19700",
            "--print-prometheus-config");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1])
        .contains(
            "  - job_name: inference\n    metrics_path: /metrics\n    static_configs:\n"
                + "      - targets: ['127.0.0.1:19701']\n        labels:\n"
                + "          namespace: \"team-a\"\n          pod: \"opt-0\"\n"
                + "          backend: \"vllm\"\n          workload_name: \"opt\"\n")
        .contains(
            "  - job_name: dcgm\n    metrics_path: /metrics\n    static_configs:\n"
                + "      - targets: ['127.0.0.1:19702']\n        labels:\n"
                + "          namespace: \"replay\"\n"
                + "          pod: \"lke-rtx4000ada-pod-attributed-xid\"\n"
                + "          backend: \"dcgm\"\n");
  }

  @Test
  void servesAReplayedCaptureAtThePrintedUrlAndReportsItsCutLines(@TempDir Path dir)
      throws Exception {
    Path vllm = capture(dir, "vllm-0.4.3.txt");
    Path cut = capture(dir, "03_v0.5.3-0.5.6_aibrix1614_dp_attention_pid_label_TRUNCATED.prom");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new SimulateCommand());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    ExecutorService exec = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> code =
          exec.submit(
              () ->
                  cl.execute(
                      "--replay",
                      vllm + ",pod=opt-0",
                      "--replay",
                      cut.toString(),
                      "--listen",
                      "127.0.0.1:0",
                      "--run-for",
                      "20s"));
      Pattern url = Pattern.compile("opt-0\\s+(http://127.0.0.1:\\d+/metrics)\\s+(\\S+)");
      long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      Matcher m = url.matcher("");
      while (!(m = url.matcher(out.toString())).find()) {
        assertThat(System.nanoTime()).as("the printed inventory").isLessThan(deadline);
        Thread.sleep(50);
      }
      assertThat(m.group(2))
          .isEqualTo("job=inference,namespace=replay,pod=opt-0,backend=vllm,workload_name=opt-0");
      HttpResponse<String> page =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(m.group(1))).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(page.body())
          .contains("vllm:prompt_tokens_total{model_name=\"facebook/opt-125m\"}");
      assertThat(out.toString()).contains("infermon simulate: 2 replayed captures (uptime 1h)");
      assertThat(err.toString())
          .contains("infermon simulate: " + cut + ": dropped 1 cut line at its end (from line 12)");
      code.cancel(true);
    } finally {
      exec.shutdownNow();
      assertThat(exec.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void replayErrorsAreUsageErrorsThatSayWhatAndWhere(@TempDir Path dir) throws Exception {
    Path vllm = capture(dir, "vllm-0.4.3.txt");
    Path html = dir.resolve("index.html");
    Files.writeString(html, "# HELP x y\n<html>\n");
    Object[][] rows = {
      // exit 1: the file cannot be replayed
      {
        1,
        new String[] {"--replay", dir.resolve("missing.txt").toString()},
        "infermon simulate: no such capture file: " + dir.resolve("missing.txt")
      },
      {
        1,
        new String[] {"--replay", html.toString()},
        "infermon simulate: " + html + ":2:1: not an exposition page: "
      },
      // exit 2: usage errors
      {2, new String[] {"--replay", vllm + ",podx"}, "bad label \"podx\" in --replay"},
      {2, new String[] {"--replay", vllm + ",__address__=x"}, "label \"__address__\" is reserved"},
      {2, new String[] {"--replay", vllm + ",1pod=x"}, "not a label name: \"1pod\""},
      {
        2,
        new String[] {"--replay", vllm.toString(), "--replay", vllm.toString()},
        "two replayed targets are named \"vllm-0-4-3\""
      },
      {
        2,
        new String[] {"--replay", vllm.toString(), "--vllm-pods", "2"},
        "--vllm-pods shapes the simulated fleet"
      },
      {
        2,
        new String[] {"--replay", vllm.toString(), "--replay-uptime", "0s"},
        "--replay-uptime must be positive"
      },
    };
    for (Object[] row : rows) {
      String[] args = (String[]) row[1];
      String[] all = java.util.Arrays.copyOf(args, args.length + 2);
      all[args.length] = "--listen";
      all[args.length + 1] = "127.0.0.1:0";
      String[] r = run(all);
      assertThat(r[0]).as(String.join(" ", args)).isEqualTo(row[0].toString());
      assertThat(r[2]).as(String.join(" ", args)).contains((String) row[2]);
      if ((int) row[0] == 1) {
        assertThat(r[2]).as("no usage text for a bad file").doesNotContain("Usage:");
      }
    }
  }
}
