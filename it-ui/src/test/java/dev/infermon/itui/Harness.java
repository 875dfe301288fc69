package dev.infermon.itui;

import dev.infermon.server.demo.Demo;
import dev.infermon.server.runtime.Infermon;
import dev.infermon.server.runtime.ServeSettings;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.Ticker;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.InventoryFormats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A simulated fleet on 127.0.0.1 with {@code history} of it backfilled, and infermon serving on a
 * free port and scraping the fleet live every {@code scrapeInterval}. Closes everything it started,
 * in reverse order.
 */
final class Harness implements AutoCloseable {
  final Fleet fleet;
  final FleetServer fleetServer;
  final Infermon infermon;
  final long samplesBackfilled;
  private final Ticker ticker;

  private Harness(Fleet fleet, FleetServer fs, Ticker ticker, Infermon infermon, long samples) {
    this.fleet = fleet;
    this.fleetServer = fs;
    this.ticker = ticker;
    this.infermon = infermon;
    this.samplesBackfilled = samples;
  }

  static Harness start(FleetConfig config, Duration history, int scrapeSeconds, Path dir)
      throws Exception {
    long now = System.currentTimeMillis();
    Fleet fleet = Fleet.create(config, now - history.toMillis());
    FleetServer fs = FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true));
    Ticker ticker = null;
    Infermon m = null;
    try {
      Path data = dir.resolve("data");
      long samples =
          history.isZero()
              ? 0
              : Backfill.run(fleet, data, now, Duration.ofSeconds(scrapeSeconds), fs::hostPort);
      ticker = Ticker.start(fleet, Clock.systemUTC(), 250);
      Path yml = dir.resolve("infermon.yml");
      Files.writeString(
          yml,
          InventoryFormats.prometheusYaml(
              fleet.inventory(), fs::hostPort, fs::metricsPath, scrapeSeconds));
      ServeSettings s = serveSettings(yml, data);
      m = Infermon.start(s, "0.1.0-it-ui");
      return new Harness(fleet, fs, ticker, m, samples);
    } catch (Exception | Error e) {
      if (m != null) {
        m.close();
      }
      if (ticker != null) {
        ticker.close();
      }
      fs.close();
      throw e;
    }
  }

  /**
   * serve's settings as every browser test runs it: the config file {@code config}, the TSDB in
   * {@code data}, a free port on 127.0.0.1, the lookback and limits of the defaults.
   */
  static ServeSettings serveSettings(Path config, Path data) {
    return new ServeSettings(
        config,
        true,
        Optional.of("127.0.0.1:0"),
        Optional.of(data),
        Optional.empty(),
        Optional.empty(),
        false,
        false,
        Duration.ofMinutes(2),
        50_000_000,
        Optional.empty(),
        Duration.ofMinutes(5),
        Map.of(),
        Map.of());
  }

  /**
   * {@link Demo}'s settings for browser tests: the demo's own configuration with {@code yaml}
   * appended (a top-level section the demo does not write, such as {@code llm:}).
   */
  static Demo.Settings demoSettings(String yaml) {
    return (config, workDir) -> {
      try {
        Files.writeString(config, yaml, StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return serveSettings(config, workDir.resolve("data"));
    };
  }

  String baseUrl() {
    return "http://127.0.0.1:" + infermon.port();
  }

  @Override
  public void close() {
    infermon.close();
    ticker.close();
    fleetServer.close();
  }

  static void deleteQuietly(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temp directory; the OS cleans up what is left
    }
  }
}
