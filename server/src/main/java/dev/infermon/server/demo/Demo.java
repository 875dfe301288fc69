package dev.infermon.server.demo;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.server.runtime.Infermon;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.ReplayServer;
import dev.infermon.simulator.replay.ReplayTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running demo: a simulated fleet, or replayed real captures, served on 127.0.0.1 (free ports),
 * infermon on the embedded engine scraping it through a generated configuration (job {@code
 * inference} for the engines, {@code dcgm} for the GPU exporters, each target with its labels), and
 * the last hours of its pages backfilled before the live scrapes start, so every panel has data at
 * once. A simulated fleet then follows the wall clock (a ticker); a replayed capture equals itself
 * at the start of the history and advances from there.
 *
 * <p>Owns a temporary directory (the generated configuration, and the TSDB unless a path was
 * given), deleted by {@link #close()}. Threading: {@code close} may be called from any thread (a
 * shutdown hook) and is idempotent.
 */
public final class Demo implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Demo.class);

  /**
   * How the demo is run.
   *
   * @param fleet the simulated fleet (unused when {@code replay} is not empty)
   * @param replay captures to replay instead of the simulated fleet
   */
  public record Options(
      FleetConfig fleet, List<ReplayTarget> replay, Duration backfill, Duration scrapeInterval) {
    /**
     * Validates.
     *
     * @throws IllegalArgumentException for a negative backfill or an interval under one second
     */
    public Options {
      replay = List.copyOf(replay);
      if (replay.isEmpty()) {
        Objects.requireNonNull(fleet, "fleet");
      }
      if (backfill == null || backfill.isNegative()) {
        throw new IllegalArgumentException("--backfill must not be negative: " + backfill);
      }
      if (scrapeInterval == null || scrapeInterval.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException(
            "scrape interval must be at least 1s: " + scrapeInterval);
      }
    }

    /** A simulated fleet. */
    public Options(FleetConfig fleet, Duration backfill, Duration scrapeInterval) {
      this(fleet, List.of(), backfill, scrapeInterval);
    }
  }

  /** Makes the server's settings once the demo's configuration file and work directory exist. */
  @FunctionalInterface
  public interface Settings {
    /**
     * @param configFile the generated configuration
     * @param workDir the demo's temporary directory (the TSDB goes to {@code workDir/data} unless a
     *     path was given)
     */
    ServeSettings of(Path configFile, Path workDir);
  }

  private final DemoTargets targets;
  private final Path workDir;
  private final long backfillMillis;
  private final long startupMillis;
  private Infermon infermon;
  private boolean closed;

  private Demo(DemoTargets targets, Path workDir, long backfillMillis, long startupMillis) {
    this.targets = targets;
    this.workDir = workDir;
    this.backfillMillis = backfillMillis;
    this.startupMillis = startupMillis;
  }

  /**
   * Starts the targets, backfills their history, starts infermon and the live scrapes. On failure,
   * whatever started is stopped and the temporary directory removed.
   *
   * @param progress where backfill progress is printed
   * @throws ConfigException if the generated configuration is refused (a bug)
   * @throws IOException if a port cannot be bound or the storage cannot be opened
   */
  public static Demo start(Options opts, Settings settings, String version, PrintWriter progress)
      throws ConfigException, IOException {
    return start(opts, fleet -> {}, settings, version, progress);
  }

  /**
   * As {@link #start(Options, Settings, String, PrintWriter)}, with {@code beforeBackfill} run on
   * the simulated fleet once it is warmed up and before its history is backfilled: a fleet whose
   * pods are in different scenarios ({@link Fleet#setScenario(dev.infermon.simulator.Scenario,
   * String)}) then has them in its whole history. Not run when the demo replays captures.
   */
  public static Demo start(
      Options opts,
      Consumer<Fleet> beforeBackfill,
      Settings settings,
      String version,
      PrintWriter progress)
      throws ConfigException, IOException {
    long t0 = System.nanoTime();
    long now = System.currentTimeMillis();
    long backfillStart = now - opts.backfill().toMillis();
    Path workDir = Files.createTempDirectory("infermon-demo-");
    DemoTargets targets = null;
    Demo demo = null;
    try {
      targets =
          opts.replay().isEmpty()
              ? SimulatedTargets.start(opts.fleet(), backfillStart)
              : ReplayedTargets.start(opts.replay(), backfillStart);
      if (targets instanceof SimulatedTargets) {
        beforeBackfill.accept(((SimulatedTargets) targets).fleet());
      }
      Path config = workDir.resolve("infermon-demo.yml");
      Files.writeString(config, targets.prometheusYaml((int) opts.scrapeInterval().toSeconds()));
      ServeSettings serve = settings.of(config, workDir);
      var scrapeConfigs = ConfigLoader.create().withEnv(serve.env()).load(config).scrapeConfigs();
      long[] backfillTook = {0};
      progress.printf(
          "infermon demo: %s; backfilling %s of history every %ds...%n",
          targets.describe(),
          FleetBackfill.human(opts.backfill().toMillis()),
          opts.scrapeInterval().toSeconds());
      progress.flush();
      DemoTargets ts = targets;
      Infermon m =
          Infermon.start(
              serve,
              version,
              storage -> {
                long b0 = System.nanoTime();
                FleetBackfill b =
                    new FleetBackfill(ts, scrapeConfigs, storage, opts.scrapeInterval(), progress);
                long pages = b.run(now, System::currentTimeMillis);
                backfillTook[0] = (System.nanoTime() - b0) / 1_000_000;
                log.info("backfilled {} pages in {} ms", pages, backfillTook[0]);
              });
      demo = new Demo(targets, workDir, backfillTook[0], (System.nanoTime() - t0) / 1_000_000);
      demo.infermon = m;
      targets.goLive();
      return demo;
    } catch (ConfigException | IOException | RuntimeException | Error e) {
      if (demo != null) {
        demo.close();
      } else {
        if (targets != null) {
          targets.close();
        }
        deleteRecursively(workDir);
      }
      throw e;
    }
  }

  /** The running server. */
  public Infermon infermon() {
    return infermon;
  }

  /** The simulated fleet, or null when the demo replays captures. */
  public Fleet fleet() {
    return targets instanceof SimulatedTargets ? ((SimulatedTargets) targets).fleet() : null;
  }

  /** The simulated fleet's HTTP server, or null when the demo replays captures. */
  public FleetServer fleetServer() {
    return targets instanceof SimulatedTargets ? ((SimulatedTargets) targets).server() : null;
  }

  /** The replayed captures' HTTP server, or null when the demo simulates a fleet. */
  public ReplayServer replayServer() {
    return targets instanceof ReplayedTargets ? ((ReplayedTargets) targets).server() : null;
  }

  /** The targets' control port ({@code /-/inventory}). */
  public int targetsControlPort() {
    return targets.controlPort();
  }

  /** The demo's temporary directory. */
  public Path workDir() {
    return workDir;
  }

  /** How long the backfill took, in milliseconds. */
  public long backfillMillis() {
    return backfillMillis;
  }

  /** How long start-up took until the API answered, in milliseconds. */
  public long startupMillis() {
    return startupMillis;
  }

  /** The URL of the UI. */
  public String uiUrl() {
    return infermon.scheme() + "://127.0.0.1:" + infermon.port() + "/";
  }

  /** Prints where to look, and the fleet's inventory. */
  public void printBanner(PrintWriter out) {
    String base = infermon.scheme() + "://127.0.0.1:" + infermon.port();
    out.printf(
        "infermon demo is ready: backfill %.1f s, start-up %.1f s%n",
        backfillMillis / 1000.0, startupMillis / 1000.0);
    out.printf("  UI:        %s/%n", base);
    out.printf("  API:       %s/api/v1/query?query=up%n", base);
    out.printf("  targets:   %s/api/v1/targets%n", base);
    out.println(targets.controlLine());
    out.println();
    targets.printTargets(out);
    out.println();
    out.println("Ctrl-C to stop.");
    out.flush();
  }

  /**
   * Stops infermon (rules, scrapes, web, TSDB) and the targets, then deletes the temporary
   * directory. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (infermon != null) {
      infermon.close();
    }
    targets.close();
    deleteRecursively(workDir);
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      log.warn("cannot delete {}: {}", dir, e.getMessage());
    }
  }
}
