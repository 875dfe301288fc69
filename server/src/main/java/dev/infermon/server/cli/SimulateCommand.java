package dev.infermon.server.cli;

import dev.infermon.simulator.DcgmAttribution;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Ticker;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.InventoryFormats;
import dev.infermon.simulator.http.ReplayServer;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.simulator.sglang.SglangRelease;
import dev.infermon.simulator.vllm.VllmRelease;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code infermon simulate}: serves a simulated inference fleet on 127.0.0.1 until interrupted, so
 * that infermon or a real Prometheus can scrape it; or prints the fleet's scrape configuration.
 * With {@code --replay} it serves real captures instead ({@link ReplayOptions}).
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description =
        "Serve a simulated LLM inference fleet on 127.0.0.1: vLLM and SGLang pods driven by a"
            + " queueing model, prefill/decode pairs, and one dcgm-exporter per node; or, with"
            + " --replay, real /metrics captures as live targets. Each target gets its own port"
            + " (control port + 1 + i); the control port answers GET /-/inventory (and, for the"
            + " simulated fleet, POST /-/scenario?name=...&pod=...). Runs until Ctrl-C.")
public final class SimulateCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin FleetOptions fleetOptions = new FleetOptions();

  @Option(
      names = "--legacy-vllm-pods",
      description = "Older-release vLLM pods (default: ${DEFAULT-VALUE}).")
  int legacyVllmPods = 1;

  @Option(
      names = "--legacy-release",
      description = "Release of the older pods: v0.11 or v0.4.3 (default: ${DEFAULT-VALUE}).")
  String legacyRelease = "v0.11";

  @Option(
      names = "--data-parallel-pods",
      description = "Current vLLM pods running two data-parallel engines (default: 1).")
  Integer dataParallelPods;

  @Option(
      names = "--sglang-tp",
      description = "TP ranks per SGLang server (default: ${DEFAULT-VALUE}).")
  int sglangTp = 2;

  @Option(
      names = "--sglang-gateway-pods",
      description =
          "Pods served through the SGLang gateway, sglang_ names (default: ${DEFAULT-VALUE}).")
  int sglangGatewayPods = 1;

  @Option(
      names = "--sglang-release",
      description =
          "Release line of every SGLang server: 0.5.9 (cache_config_info, PD kv_transfer gauges)"
              + " or 0.5.11 (page_size/num_pages/kv_*_tokens gauges, PD kv_transfer histograms,"
              + " engine_type on tokenizer series) (default: ${DEFAULT-VALUE}).")
  String sglangRelease = "0.5.9";

  @Option(names = "--gpus-per-node", description = "GPUs per node (default: ${DEFAULT-VALUE}).")
  int gpusPerNode = 8;

  @Option(
      names = "--namespace",
      description = "Namespace of the inference pods (default: ${DEFAULT-VALUE}).")
  String namespace = "inference";

  @Option(
      names = "--listen",
      description =
          "Control address host:port; targets take the next ports (default: ${DEFAULT-VALUE}).")
  String listen = "127.0.0.1:9400";

  @Option(
      names = "--single-port",
      description = "Serve every target on the control port at /pods/<name>/metrics.")
  boolean singlePort;

  @Option(
      names = "--warmup",
      converter = DurationConverter.class,
      defaultValue = "10m",
      description =
          "Simulated time run before serving, so pages have traffic (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(
      names = "--no-sm-fields",
      description =
          "Leave DCGM_FI_PROF_SM_ACTIVE/SM_OCCUPANCY out, as the default counters CSV does.")
  boolean noSmFields;

  @Option(
      names = "--dcgm-node-label",
      description =
          "dcgm-exporter's node label: Hostname (releases through 4.5.3-4.8.2) or hostname"
              + " (main, #655) (default: ${DEFAULT-VALUE}).")
  String dcgmNodeLabel = "Hostname";

  @Option(
      names = "--lora",
      split = ",",
      description =
          "LoRA adapters the single-engine vLLM pods serve (--enable-lora); requests cycle"
              + " through them (default: none).")
  List<String> lora;

  @Option(
      names = "--max-lora",
      description =
          "Distinct adapters a batch may hold (vLLM --max-loras; default: ${DEFAULT-VALUE}).")
  int maxLora = 1;

  @Option(
      names = "--mfu",
      description =
          "Run the current vLLM pods with --enable-mfu-metrics: their FLOPs and memory-traffic"
              + " counters grow with the tokens they process (2 FLOPs per weight per token).")
  boolean mfu;

  @Option(
      names = "--kv-cache-metrics",
      description =
          "Run the current vLLM pods with --kv-cache-metrics: their pages get the KV block"
              + " lifetime, idle-before-eviction and reuse-gap histograms (1 block in 100"
              + " sampled).")
  boolean kvCacheMetrics;

  @Option(
      names = "--lmcache-pods",
      description =
          "Run LMCache (LMCacheConnectorV1, PROMETHEUS_MULTIPROC_DIR set) in this many of the"
              + " current single-engine vLLM pods: their pages get LMCache's lmcache:* families"
              + " (default: 0; 1 with --engines all).")
  Integer lmcachePods;

  @Option(
      names = "--no-nixl",
      description =
          "The vLLM prefill/decode pair moves KV without the NIXL connector: its pages have no"
              + " vllm:nixl_* families (default: NixlConnector).")
  boolean noNixl;

  @Option(
      names = "--dcgm-mig",
      paramLabel = "PROFILE",
      description =
          "Run each one-GPU pod on a MIG instance of this H100 80GB profile (1g.10gb, 1g.20gb,"
              + " 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb); dcgm-exporter then writes GPU_I_PROFILE"
              + " and GPU_I_ID (default: whole GPUs).")
  String dcgmMig = "";

  @Option(
      names = "--dcgm-dra",
      description =
          "dcgm-exporter attributes GPUs through DRA (--kubernetes-enable-dra): dra_* labels, no"
              + " pod_uid.")
  boolean dcgmDra;

  @Option(
      names = "--print-prometheus-config",
      description = "Print a prometheus.yml scraping the fleet and exit.")
  boolean printPrometheusConfig;

  @Option(names = "--print-file-sd", description = "Print a file_sd JSON list and exit.")
  boolean printFileSd;

  @Option(
      names = "--scrape-interval",
      description = "Scrape interval in printed configs, seconds (default: ${DEFAULT-VALUE}).")
  int scrapeInterval = 15;

  @Option(
      names = "--run-for",
      hidden = true,
      converter = DurationConverter.class,
      description = "Stop after this long (tests).")
  Duration runFor;

  @CommandLine.Mixin ReplayOptions replayOptions = new ReplayOptions();

  /** Flags of the simulated fleet that a replay does not take (besides {@link FleetOptions}). */
  private static final Set<String> FLEET_ONLY =
      Set.of(
          "--legacy-vllm-pods",
          "--legacy-release",
          "--data-parallel-pods",
          "--sglang-tp",
          "--sglang-gateway-pods",
          "--sglang-release",
          "--gpus-per-node",
          "--namespace",
          "--single-port",
          "--warmup",
          "--no-sm-fields",
          "--dcgm-node-label",
          "--lora",
          "--max-lora",
          "--mfu",
          "--kv-cache-metrics",
          "--lmcache-pods",
          "--no-nixl",
          "--dcgm-mig",
          "--dcgm-dra");

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    if (replayOptions.given()) {
      return replay(out);
    }
    FleetConfig config;
    String host;
    int port;
    try {
      config = config();
      host = host();
      port = port();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    long now = Clock.systemUTC().millis();
    Fleet fleet;
    try {
      fleet = Fleet.create(config, now - warmup.toMillis());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (printPrometheusConfig || printFileSd) {
      if (port == 0 && !singlePort) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "printing a config needs a fixed --listen port, not 0");
      }
      Function<PodInfo, String> hostPort = p -> host + ":" + port(fleet, p, port);
      Function<PodInfo, String> path =
          p -> (singlePort ? "/pods/" + p.name() : "") + FleetServer.pagePath(p);
      // on one port every target would share an instance: each gets its own, as the server's
      // routers name it
      List<InventoryFormats.Target> targets =
          InventoryFormats.targets(
              fleet.inventory(),
              hostPort,
              path,
              singlePort ? p -> FleetServer.sharedPortInstance(p, port) : null);
      out.print(
          printFileSd
              ? InventoryFormats.fileSd(targets)
              : InventoryFormats.prometheusYaml(targets, scrapeInterval));
      out.flush();
      return 0;
    }
    fleet.advanceTo(now);
    Ticker ticker = Ticker.start(fleet, Clock.systemUTC(), 250);
    try (ticker;
        FleetServer server =
            FleetServer.start(fleet, new FleetServer.Options(host, port, !singlePort))) {
      printInventory(out, fleet, server);
      awaitStop();
    }
    return 0;
  }

  /** {@code --replay}: serves the captures, or prints their scrape configuration. */
  private int replay(PrintWriter out) throws IOException, InterruptedException {
    ReplayOptions.refuseFleetFlags(spec, "fleetOptions", FLEET_ONLY);
    String host;
    int port;
    try {
      host = host();
      port = port();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    PrintWriter err = spec.commandLine().getErr();
    ReplayFleet fleet;
    try {
      fleet = ReplayFleet.of(replayOptions.load(spec, err), Clock.systemUTC().millis());
    } catch (ReplayOptions.BadCapture e) {
      err.println("infermon simulate: " + e.getMessage());
      err.flush();
      return 1;
    }
    if (printPrometheusConfig || printFileSd) {
      if (port == 0) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "printing a config needs a fixed --listen port, not 0");
      }
      List<InventoryFormats.Target> targets =
          ReplayServer.scrapeTargets(
              fleet, t -> host + ":" + (port + 1 + fleet.targets().indexOf(t)));
      out.print(
          printFileSd
              ? InventoryFormats.fileSd(targets)
              : InventoryFormats.prometheusYaml(targets, scrapeInterval));
      out.flush();
      return 0;
    }
    try (ReplayServer server =
        ReplayServer.start(fleet, new ReplayServer.Options(host, port), Clock.systemUTC())) {
      out.printf(
          "infermon simulate: %d replayed capture%s (uptime %s); control"
              + " http://%s:%d/-/inventory%n",
          fleet.targets().size(),
          fleet.targets().size() == 1 ? "" : "s",
          ReplayOptions.human(replayOptions.uptime),
          host,
          server.controlPort());
      for (ReplayTarget t : fleet.targets()) {
        out.printf("%-48s %-40s %s%n", t.name(), server.url(t), ReplayOptions.describe(t));
      }
      out.println("Ctrl-C to stop.");
      out.flush();
      awaitStop();
    }
    return 0;
  }

  /** Waits for Ctrl-C (or {@code --run-for}). */
  private void awaitStop() throws InterruptedException {
    CountDownLatch stop = new CountDownLatch(1);
    Thread hook = new Thread(stop::countDown, "simulate-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (runFor != null) {
        stop.await(runFor.toMillis(), TimeUnit.MILLISECONDS);
      } else {
        stop.await();
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException alreadyShuttingDown) {
        // the JVM is exiting because of Ctrl-C: the hook has run
      }
    }
  }

  private String host() {
    int colon = listen.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("--listen must be host:port, got \"" + listen + "\"");
    }
    return listen.substring(0, colon);
  }

  private int port() {
    host();
    try {
      return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--listen must be host:port, got \"" + listen + "\"", e);
    }
  }

  private int port(Fleet fleet, PodInfo p, int controlPort) {
    return singlePort ? controlPort : controlPort + 1 + fleet.inventory().indexOf(p);
  }

  FleetConfig config() {
    FleetConfigBuilder b =
        fleetOptions
            .builder()
            .legacyVllmPods(legacyVllmPods)
            .legacyRelease(VllmRelease.fromCliName(legacyRelease))
            .sglangTensorParallel(sglangTp)
            .sglangGatewayPods(sglangGatewayPods)
            .sglangRelease(SglangRelease.fromCliName(sglangRelease))
            .gpusPerNode(gpusPerNode)
            .namespace(namespace)
            .smProfilingFields(!noSmFields)
            .dcgmNodeLabel(dcgmNodeLabel)
            .mfu(mfu)
            .kvCacheMetrics(kvCacheMetrics)
            .nixl(!noNixl)
            .dcgmAttribution(new DcgmAttribution(dcgmMig, dcgmDra));
    if (dataParallelPods != null) {
      b.dataParallelPods(dataParallelPods);
    }
    if (lmcachePods != null) {
      b.lmcachePods(lmcachePods);
    }
    if (lora != null) {
      b.lora(new LoraAdapters(lora, maxLora));
    } else if (maxLora != 1) {
      throw new IllegalArgumentException("--max-lora needs --lora (the adapters)");
    }
    return b.build();
  }

  private static void printInventory(PrintWriter out, Fleet fleet, FleetServer server) {
    out.printf(
        "infermon simulate: %d targets; control http://127.0.0.1:%d/-/inventory%n",
        fleet.inventory().size(), server.controlPort());
    for (PodInfo p : fleet.inventory()) {
      StringBuilder labels = new StringBuilder();
      for (Map.Entry<String, String> e : p.targetLabels().entrySet()) {
        labels.append(labels.length() == 0 ? "" : ",").append(e.getKey()).append('=');
        labels.append(e.getValue());
      }
      out.printf("%-48s %-40s %s%n", p.name(), server.url(p), labels);
    }
    out.println("Ctrl-C to stop.");
    out.flush();
  }

  /** Reads {@code 90s}, {@code 10m}, {@code 2h} or an ISO-8601 duration ({@code PT10M}). */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String v = value.trim();
      if (v.matches("\\d+(ms|s|m|h)")) {
        long n = Long.parseLong(v.replaceAll("\\D", ""));
        if (v.endsWith("ms")) {
          return Duration.ofMillis(n);
        }
        switch (v.charAt(v.length() - 1)) {
          case 's':
            return Duration.ofSeconds(n);
          case 'm':
            return Duration.ofMinutes(n);
          default:
            return Duration.ofHours(n);
        }
      }
      try {
        return Duration.parse(v);
      } catch (java.time.format.DateTimeParseException e) {
        throw new CommandLine.TypeConversionException(
            "not a duration: \"" + value + "\" (use 90s, 10m, 2h)");
      }
    }
  }
}
