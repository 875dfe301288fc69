package dev.infermon.server.cli;

import dev.infermon.config.ConfigException;
import dev.infermon.server.demo.Demo;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.replay.ReplayTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code infermon demo}: a simulated vLLM/SGLang fleet (or, with {@code --replay}, real captures)
 * on 127.0.0.1 and infermon scraping it, with the last hours backfilled so every panel has data at
 * once. Takes {@code serve}'s main flags (they are handed to {@code serve}'s own parser, so they
 * mean exactly the same) and the fleet's size and scenario.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a simulated LLM inference fleet (vLLM, SGLang, prefill/decode pairs, dcgm-exporter;"
          + " --engines all adds TGI, llama.cpp, TensorRT-LLM, Triton, NVIDIA NIM, llm-d's EPP in front of vLLM, SGLang's model gateway in front of SGLang and an NVIDIA Dynamo deployment, vLLM workers behind Dynamo's frontend) on 127.0.0.1 and infermon scraping it, with the last hours of history backfilled"
          + " so every panel has data at once. With --replay it serves real /metrics captures"
          + " instead, to show what infermon would show for that endpoint. Prints the URLs of"
          + " the UI and the API. Ctrl-C stops everything and removes the temporary data."
    })
public final class DemoCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Set by tests: called with the running demo instead of waiting for Ctrl-C. */
  static volatile Consumer<Demo> onStarted;

  @Option(
      names = "--web.listen-address",
      paramLabel = "HOST:PORT",
      description = "Address of the API and UI (default: ${DEFAULT-VALUE}).",
      defaultValue = "127.0.0.1:9090")
  String listenAddress;

  @Option(
      names = "--storage.tsdb.path",
      paramLabel = "DIR",
      description = "Data directory (default: a fresh temporary directory, deleted on exit).")
  Path tsdbPath;

  @Option(
      names = "--storage.tsdb.retention.time",
      paramLabel = "DURATION",
      description = "How long to keep samples (default: 15d).")
  String retentionTime;

  @Option(names = "--web.enable-lifecycle", description = "Allow reloading through POST /-/reload.")
  boolean lifecycle;

  @Option(
      names = "--web.enable-remote-write-receiver",
      description = "Accept remote-write requests on /api/v1/write.")
  boolean remoteWriteReceiver;

  @Option(
      names = "--query.timeout",
      paramLabel = "DURATION",
      description = "Longest a query may run (default: 2m).")
  String queryTimeout;

  @Option(
      names = "--query.lookback-delta",
      paramLabel = "DURATION",
      description = "How far back an instant selector looks (default: 5m).")
  String lookbackDelta;

  @Option(
      names = "--log.level",
      paramLabel = "LEVEL",
      description = "debug, info, warn or error (default: ${DEFAULT-VALUE}).",
      defaultValue = "warn")
  String logLevel;

  @Option(
      names = "--backfill",
      paramLabel = "DURATION",
      converter = SimulateCommand.DurationConverter.class,
      defaultValue = "3h",
      description = "History written before the live scrapes start (default: ${DEFAULT-VALUE}).")
  Duration backfill;

  @Option(
      names = "--scrape-interval",
      paramLabel = "DURATION",
      converter = SimulateCommand.DurationConverter.class,
      defaultValue = "15s",
      description = "Scrape and rule-evaluation interval (default: ${DEFAULT-VALUE}).")
  Duration scrapeInterval;

  @CommandLine.Mixin FleetOptions fleetOptions = new FleetOptions();

  @CommandLine.Mixin ReplayOptions replayOptions = new ReplayOptions();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Demo.Options options;
    List<ReplayTarget> replay = List.of();
    if (replayOptions.given()) {
      ReplayOptions.refuseFleetFlags(spec, "fleetOptions", Set.of());
      try {
        replay = replayOptions.load(spec, err);
      } catch (ReplayOptions.BadCapture e) {
        err.println("infermon demo: " + e.getMessage());
        err.flush();
        return 1;
      }
    }
    try {
      options =
          new Demo.Options(replay.isEmpty() ? fleet() : null, replay, backfill, scrapeInterval);
      serveSettings(Path.of("infermon-demo.yml"), Path.of(".")); // flags checked before any work
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    Demo demo;
    try {
      demo = Demo.start(options, this::serveSettings, dev.infermon.server.Main.version(), out);
    } catch (ConfigException | IOException | IllegalArgumentException e) {
      err.println("infermon demo: " + e.getMessage());
      err.flush();
      return 1;
    }
    demo.printBanner(out);
    Consumer<Demo> hook = onStarted;
    if (hook != null) {
      hook.accept(demo);
      return 0;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(demo::close, "demo-shutdown"));
    demo.infermon().awaitStopped();
    return 0;
  }

  FleetConfig fleet() {
    return fleetOptions.builder().build();
  }

  /**
   * {@code serve}'s settings for these flags: they go through {@code serve}'s own parser, so
   * defaults, validation and {@code /api/v1/status/flags} are the same as for {@code serve}.
   */
  ServeSettings serveSettings(Path configFile, Path workDir) {
    List<String> args = new ArrayList<>();
    args.add("--config.file=" + configFile);
    args.add("--web.listen-address=" + listenAddress);
    args.add("--storage.tsdb.path=" + (tsdbPath != null ? tsdbPath : workDir.resolve("data")));
    add(args, "--storage.tsdb.retention.time", retentionTime);
    add(args, "--query.timeout", queryTimeout);
    add(args, "--query.lookback-delta", lookbackDelta);
    args.add("--log.level=" + logLevel);
    if (lifecycle) {
      args.add("--web.enable-lifecycle");
    }
    if (remoteWriteReceiver) {
      args.add("--web.enable-remote-write-receiver");
    }
    ServeCommand serve = new ServeCommand();
    CommandLine cl = new CommandLine(serve);
    try {
      cl.parseArgs(args.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    ServeCommand.setLogLevel(logLevel);
    return serve.settings(System.getenv());
  }

  private static void add(List<String> args, String flag, String value) {
    if (value != null) {
      args.add(flag + "=" + value);
    }
  }
}
