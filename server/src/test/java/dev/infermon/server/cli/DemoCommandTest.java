package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.server.Main;
import dev.infermon.server.demo.Demo;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.testing.Captures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code infermon demo} in-process on free ports with a 20-minute backfill: every fleet target is
 * up, rates have data inside the backfilled window, the live scrapes take over, and stopping leaves
 * no thread, port or temporary file behind.
 */
class DemoCommandTest {
  /** The test's own client; its threads are named so the leak check can tell them apart. */
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(5))
          .executor(
              Executors.newCachedThreadPool(
                  r -> {
                    Thread t = new Thread(r, "demo-test-http");
                    t.setDaemon(true);
                    return t;
                  }))
          .build();

  private record Run(Demo demo, int exitCode, String out, String err) {}

  private static synchronized Run demo(String... args) {
    AtomicReference<Demo> ref = new AtomicReference<>();
    DemoCommand.onStarted = ref::set;
    try {
      CommandLine cl = new CommandLine(new Main());
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      cl.setOut(new PrintWriter(out));
      cl.setErr(new PrintWriter(err));
      String[] all = new String[args.length + 1];
      all[0] = "demo";
      System.arraycopy(args, 0, all, 1, args.length);
      int code = cl.execute(all);
      return new Run(ref.get(), code, out.toString(), err.toString());
    } finally {
      DemoCommand.onStarted = null;
    }
  }

  private static String get(Demo d, String pathAndQuery) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + d.infermon().port() + pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static String query(Demo d, String promql, double timeSeconds) throws Exception {
    return get(
        d,
        "/api/v1/query?query="
            + URLEncoder.encode(promql, StandardCharsets.UTF_8)
            + "&time="
            + timeSeconds);
  }

  private static int count(String body, String needle) {
    Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(body);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return s.isConnected();
    } catch (ConnectException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /**
   * Threads started since {@code before} that are still alive, except JVM-wide singletons that no
   * component owns: the common fork-join pool and client_java's metrics scheduler.
   */
  private static Set<String> newThreads(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t) && t.isAlive())
        .map(Thread::getName)
        .filter(n -> !n.startsWith("ForkJoinPool.commonPool"))
        .filter(n -> !n.startsWith("prometheus-metrics-scheduler"))
        .filter(n -> !n.startsWith("demo-test-http"))
        .collect(Collectors.toSet());
  }

  @Test
  void backfillsTheFleetServesItLiveAndStopsCleanly() throws Exception {
    Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
    long started = System.currentTimeMillis();
    Run run =
        demo(
            "--web.listen-address=127.0.0.1:0",
            "--backfill=20m",
            "--scrape-interval=5s",
            "--vllm-pods=2",
            "--sglang-pods=1",
            "--no-pd");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Demo d = run.demo();
    List<PodInfo> inventory = d.fleet().inventory();
    int port = d.infermon().port();
    int fleetPort = d.fleetServer().controlPort();
    try {
      assertThat(run.out())
          .contains("backfilling 20m of history")
          .contains("UI:        http://127.0.0.1:" + port + "/")
          .contains("API:       http://127.0.0.1:" + port + "/api/v1/query")
          .contains(inventory.get(0).name());
      double now = System.currentTimeMillis() / 1000.0;

      String up = query(d, "up", now);
      assertThat(count(up, "\"__name__\":\"up\"")).isEqualTo(inventory.size());
      assertThat(count(up, "\"1\"]")).as(up).isEqualTo(inventory.size());
      assertThat(up).contains("\"job\":\"inference\"").contains("\"job\":\"dcgm\"");

      double inside = started / 1000.0 - 10 * 60;
      String rate = query(d, "sum by (pod) (rate(vllm:request_success_total[5m]))", inside);
      assertThat(rate).contains("\"pod\":\"" + inventory.get(0).name() + "\"");
      String dcgm = query(d, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", inside);
      assertThat(dcgm).contains("\"backend\":\"dcgm\"");

      long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
      while (count(get(d, "/api/v1/targets"), "\"health\":\"up\"") < inventory.size()) {
        assertThat(System.nanoTime()).as("live scrapes of every target").isLessThan(deadline);
        Thread.sleep(500);
      }
      assertThat(get(d, "/api/v1/rules")).contains("\"name\":\"LLMTimeToFirstTokenHigh\"");
    } finally {
      d.close();
    }

    assertThat(Files.exists(d.workDir())).as("temporary directory removed").isFalse();
    assertThat(listening(port)).as("web port closed").isFalse();
    assertThat(listening(fleetPort)).as("fleet port closed").isFalse();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    Set<String> left = newThreads(before);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      System.gc(); // HTTP clients' selector threads end once their client is collected
      Thread.sleep(200);
      left = newThreads(before);
    }
    assertThat(left).as("threads left behind").isEmpty();
  }

  @Test
  void replaysCapturesWithTheirHistoryAndServesThemLive(@TempDir Path dir) throws Exception {
    Path vllm = dir.resolve("vllm-0.4.3.txt");
    Files.write(vllm, Captures.get("vllm-0.4.3.txt").bytes());
    Path gpu = dir.resolve("lke.prom");
    Files.write(gpu, Captures.get("lke-rtx4000ada-pod-attributed-xid.prom").bytes());
    long started = System.currentTimeMillis();
    Run run =
        demo(
            "--web.listen-address=127.0.0.1:0",
            "--backfill=20m",
            "--scrape-interval=5s",
            "--replay",
            vllm + ",pod=opt-0,namespace=default,workload_name=opt",
            "--replay",
            gpu.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    Demo d = run.demo();
    int replayPort = d.targetsControlPort();
    try {
      assertThat(d.fleet()).isNull();
      assertThat(run.out())
          .contains("infermon demo: 2 replayed captures; backfilling 20m of history")
          .contains("captures:  http://127.0.0.1:" + replayPort + "/-/inventory")
          .contains("job=inference,namespace=default,pod=opt-0,backend=vllm,workload_name=opt")
          .contains("job=dcgm,namespace=replay,pod=lke,backend=dcgm");
      double now = System.currentTimeMillis() / 1000.0;
      String up = query(d, "up", now);
      assertThat(count(up, "\"1\"]")).as(up).isEqualTo(2);

      double inside = started / 1000.0 - 10 * 60;
      String rate = query(d, "rate(vllm:prompt_tokens_total{pod=\"opt-0\"}[5m])", inside);
      assertThat(rate).contains("\"namespace\":\"default\"").contains("\"workload_name\":\"opt\"");
      assertThat(rate).doesNotContain("\"0\"]"); // 5 prompt tokens per hour, not zero
      String energy = query(d, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", inside);
      assertThat(energy).contains("\"exported_pod\":\"cuda-75454ffb9f-8ljq7\"");
      String inventory = get(d, "/api/v1/llm/inventory");
      assertThat(inventory).contains("\"pod\":\"opt-0\"").contains("\"vllm\"");

      long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
      while (count(get(d, "/api/v1/targets"), "\"health\":\"up\"") < 2) {
        assertThat(System.nanoTime()).as("live scrapes of every capture").isLessThan(deadline);
        Thread.sleep(500);
      }
    } finally {
      d.close();
    }
    assertThat(Files.exists(d.workDir())).as("temporary directory removed").isFalse();
    assertThat(listening(replayPort)).as("replay port closed").isFalse();
  }

  @Test
  void replayWithFleetFlagsIsAUsageError(@TempDir Path dir) throws Exception {
    Path vllm = dir.resolve("vllm-0.4.3.txt");
    Files.write(vllm, Captures.get("vllm-0.4.3.txt").bytes());
    Run fleetFlag = demo("--replay", vllm.toString(), "--sglang-pods=1");
    assertThat(fleetFlag.exitCode()).isEqualTo(2);
    assertThat(fleetFlag.err()).contains("--sglang-pods shapes the simulated fleet");
    Run missing = demo("--replay", dir.resolve("none.txt").toString());
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err()).contains("no such capture file: " + dir.resolve("none.txt"));
    assertThat(missing.demo()).isNull();
  }

  @Test
  void badFleetSizeIsAUsageError() {
    Run run = demo("--vllm-pods=-1", "--web.listen-address=127.0.0.1:0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("vllmPods must be >= 0");
    assertThat(run.demo()).isNull();
  }

  private static dev.infermon.simulator.FleetConfig parsed(String... args) {
    DemoCommand cmd = new DemoCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd.fleet();
  }

  @Test
  void enginesAllRunsEverySimulatedEngineBehindLlmDAndSmgAndADynamoDeployment() {
    var all = parsed("--engines", "all");
    assertThat(all)
        .isEqualTo(
            dev.infermon.simulator.FleetConfig.builder()
                .engines(Backend.engines())
                .routers(List.of(RouterKind.LLM_D, RouterKind.SMG, RouterKind.DYNAMO))
                .build());
    assertThat(all.dynamoPods()).as("the Dynamo deployment's workers").isEqualTo(2);
    assertThat(all.vllmPods()).isPositive();
    assertThat(all.sglangPods()).isPositive();
    assertThat(all.tgiPods()).isPositive();
    assertThat(all.llamacppPods()).isPositive();
    assertThat(all.trtllmPods()).isPositive();
    assertThat(all.trtllmRelease13()).as("the older TensorRT-LLM page too").isPositive();
    assertThat(all.trtllmRelease10()).as("and the first, unprefixed one").isPositive();
    assertThat(all.tritonPods()).isPositive();
    assertThat(all.nimPods()).isPositive();
    assertThat(all.prefillDecode()).isTrue();
  }

  @Test
  void aListOfEnginesKeepsOnlyThose() {
    var two = parsed("--engines", "tgi,llamacpp", "--tgi-pods=2");
    assertThat(two.tgiPods()).isEqualTo(2);
    assertThat(two.llamacppPods()).isEqualTo(1);
    assertThat(
            two.vllmPods()
                + two.legacyVllmPods()
                + two.sglangPods()
                + two.trtllmPods()
                + two.tritonPods())
        .isZero();
    assertThat(two.sglangGatewayPods()).isZero();
    assertThat(two.prefillDecode()).as("the pairs are a vLLM and an SGLang one").isFalse();
    assertThat(two.routers()).as("no router fronts TGI or llama.cpp").isEmpty();
    assertThat(parsed("--engines", "vllm").routers()).containsExactly(RouterKind.LLM_D);
    assertThat(parsed("--engines", "sglang").routers()).containsExactly(RouterKind.SMG);
    assertThat(parsed("--engines", "vllm", "--router", "production-stack").routers())
        .containsExactly(RouterKind.PRODUCTION_STACK);
    assertThat(parsed("--router", "llm-d, smg").routers())
        .containsExactly(RouterKind.LLM_D, RouterKind.SMG);
    assertThat(parsed("--engines", "all", "--router", "none").routers()).isEmpty();
    assertThat(parsed().routers()).isEmpty();
  }

  @Test
  void anUnknownEngineIsAUsageErrorNamingTheKnownOnes() {
    Run run = demo("--engines", "vllm,ollama", "--web.listen-address=127.0.0.1:0");

    assertThat(run.exitCode()).isEqualTo(2);
    List<String> known = Backend.engines().stream().map(Backend::label).toList();
    assertThat(run.err())
        .contains("--engines: unknown engine \"ollama\" (one of " + String.join(", ", known));
    // every simulated engine is one of the catalog's, but NVIDIA NIM: read as vLLM (its unprefixed
    // spelling, vllm.yaml's NVIDIA NIM variant)
    assertThat(dev.infermon.llm.catalog.Catalog.ENGINES)
        .containsAll(known.stream().filter(e -> !e.equals("nim")).toList())
        .doesNotContain("nim")
        .contains("vllm");
    assertThat(run.demo()).isNull();
  }

  @Test
  void aPodCountOfAnEngineTheListLeavesOutIsAUsageError() {
    Run run = demo("--engines", "tgi", "--vllm-pods=2", "--web.listen-address=127.0.0.1:0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--vllm-pods given, but --engines does not list that engine");
  }

  @Test
  void badServeFlagIsAUsageError() {
    Run run = demo("--query.timeout=soon", "--web.listen-address=127.0.0.1:0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--query.timeout");
  }

  @Test
  void optionsRefuseNegativeBackfill() {
    assertThatThrownBy(
            () ->
                new Demo.Options(
                    dev.infermon.simulator.FleetConfig.defaults(),
                    Duration.ofMinutes(-1),
                    Duration.ofSeconds(15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--backfill");
  }
}
