package dev.infermon.server.demo;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.server.runtime.Infermon;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Ticker;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.InventoryFormats;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running demo: a simulated fleet served on 127.0.0.1 (free ports), infermon on the embedded
 * engine scraping it through a generated configuration (job {@code inference} for the engines,
 * {@code dcgm} for the GPU exporters, each target with its inventory labels), and the last hours of
 * the fleet backfilled before the live scrapes start, so every panel has data at once. A ticker
 * then keeps the fleet following the wall clock.
 *
 * <p>Owns a temporary directory (the generated configuration, and the TSDB unless a path was
 * given), deleted by {@link #close()}. Threading: {@code close} may be called from any thread (a
 * shutdown hook) and is idempotent.
 */
public final class Demo implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Demo.class);

  /** Simulated time run before the backfill starts, so queues and caches are warm. */
  static final Duration WARMUP = Duration.ofMinutes(10);

  /** How the demo is run. */
  public record Options(FleetConfig fleet, Duration backfill, Duration scrapeInterval) {
    /**
     * Validates.
     *
     * @throws IllegalArgumentException for a negative backfill or an interval under one second
     */
    public Options {
      Objects.requireNonNull(fleet, "fleet");
      if (backfill == null || backfill.isNegative()) {
        throw new IllegalArgumentException("--backfill must not be negative: " + backfill);
      }
      if (scrapeInterval == null || scrapeInterval.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException(
            "scrape interval must be at least 1s: " + scrapeInterval);
      }
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

  private final Fleet fleet;
  private final FleetServer fleetServer;
  private final Path workDir;
  private final long backfillMillis;
  private final long startupMillis;
  private Infermon infermon;
  private Ticker ticker;
  private boolean closed;

  private Demo(
      Fleet fleet, FleetServer server, Path workDir, long backfillMillis, long startupMillis) {
    this.fleet = fleet;
    this.fleetServer = server;
    this.workDir = workDir;
    this.backfillMillis = backfillMillis;
    this.startupMillis = startupMillis;
  }

  /**
   * Starts the fleet, backfills its history, starts infermon and the live scrapes. On failure,
   * whatever started is stopped and the temporary directory removed.
   *
   * @param progress where backfill progress is printed
   * @throws ConfigException if the generated configuration is refused (a bug)
   * @throws IOException if a port cannot be bound or the storage cannot be opened
   */
  public static Demo start(Options opts, Settings settings, String version, PrintWriter progress)
      throws ConfigException, IOException {
    long t0 = System.nanoTime();
    long now = System.currentTimeMillis();
    long backfillStart = now - opts.backfill().toMillis();
    Fleet fleet = Fleet.create(opts.fleet(), backfillStart - WARMUP.toMillis());
    fleet.advanceTo(backfillStart);
    Path workDir = Files.createTempDirectory("infermon-demo-");
    FleetServer server = null;
    Demo demo = null;
    try {
      server = FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true));
      Path config = workDir.resolve("infermon-demo.yml");
      FleetServer fs = server;
      Files.writeString(
          config,
          InventoryFormats.prometheusYaml(
              fleet.inventory(),
              fs::hostPort,
              fs::metricsPath,
              (int) opts.scrapeInterval().toSeconds()));
      ServeSettings serve = settings.of(config, workDir);
      var scrapeConfigs = ConfigLoader.create().withEnv(serve.env()).load(config).scrapeConfigs();
      long[] backfillTook = {0};
      progress.printf(
          "infermon demo: %d simulated targets; backfilling %s of history every %ds...%n",
          fleet.inventory().size(),
          FleetBackfill.human(opts.backfill().toMillis()),
          opts.scrapeInterval().toSeconds());
      progress.flush();
      Infermon m =
          Infermon.start(
              serve,
              version,
              storage -> {
                long b0 = System.nanoTime();
                FleetBackfill b =
                    new FleetBackfill(
                        fleet, fs, scrapeConfigs, storage, opts.scrapeInterval(), progress);
                long pages = b.run(now, System::currentTimeMillis);
                backfillTook[0] = (System.nanoTime() - b0) / 1_000_000;
                log.info("backfilled {} pages in {} ms", pages, backfillTook[0]);
              });
      demo =
          new Demo(fleet, server, workDir, backfillTook[0], (System.nanoTime() - t0) / 1_000_000);
      demo.infermon = m;
      demo.ticker = Ticker.start(fleet, Clock.systemUTC(), 250);
      return demo;
    } catch (ConfigException | IOException | RuntimeException | Error e) {
      if (demo != null) {
        demo.close();
      } else {
        if (server != null) {
          server.close();
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

  /** The simulated fleet. */
  public Fleet fleet() {
    return fleet;
  }

  /** The fleet's HTTP server (control port, target URLs). */
  public FleetServer fleetServer() {
    return fleetServer;
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
    out.printf(
        "  fleet:     http://127.0.0.1:%d/-/inventory  (POST /-/scenario?name=saturated to change"
            + " the scenario)%n",
        fleetServer.controlPort());
    out.println();
    for (PodInfo p : fleet.inventory()) {
      StringBuilder labels = new StringBuilder();
      for (Map.Entry<String, String> e : p.targetLabels().entrySet()) {
        labels.append(labels.length() == 0 ? "" : ",").append(e.getKey()).append('=');
        labels.append(e.getValue());
      }
      out.printf("  %-44s %-32s %s%n", p.name(), fleetServer.url(p), labels);
    }
    out.println();
    out.println("Ctrl-C to stop.");
    out.flush();
  }

  /**
   * Stops infermon (rules, scrapes, web, TSDB), the ticker and the fleet, then deletes the
   * temporary directory. Idempotent.
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
    if (ticker != null) {
      ticker.close();
    }
    fleetServer.close();
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
