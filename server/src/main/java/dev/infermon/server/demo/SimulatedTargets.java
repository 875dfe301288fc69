package dev.infermon.server.demo;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Ticker;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.InventoryFormats;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** The simulated fleet as the demo's targets; a {@link Ticker} keeps it on the wall clock. */
final class SimulatedTargets implements DemoTargets {
  /** Simulated time run before the backfill starts, so queues and caches are warm. */
  static final Duration WARMUP = Duration.ofMinutes(10);

  private final Fleet fleet;
  private final FleetServer server;
  private final boolean ownsServer;
  private Ticker ticker;

  SimulatedTargets(Fleet fleet, FleetServer server, boolean ownsServer) {
    this.fleet = fleet;
    this.server = server;
    this.ownsServer = ownsServer;
  }

  /** A fleet warmed up to {@code startMillis}, served on free ports of 127.0.0.1. */
  static SimulatedTargets start(FleetConfig config, long startMillis) throws IOException {
    Fleet fleet = Fleet.create(config, startMillis - WARMUP.toMillis());
    fleet.advanceTo(startMillis);
    return new SimulatedTargets(
        fleet, FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true)), true);
  }

  Fleet fleet() {
    return fleet;
  }

  FleetServer server() {
    return server;
  }

  @Override
  public String describe() {
    return fleet.inventory().size() + " simulated targets";
  }

  @Override
  public String prometheusYaml(int scrapeIntervalSeconds) {
    // the server's own targets: on one port each with its instance, as its routers name the pods
    return InventoryFormats.prometheusYaml(server.scrapeTargets(), scrapeIntervalSeconds);
  }

  @Override
  public List<String> urls() {
    return fleet.inventory().stream().map(server::url).toList();
  }

  @Override
  public String contentType(String url) {
    return FleetServer.CONTENT_TYPE;
  }

  @Override
  public long nowMillis() {
    return fleet.nowMillis();
  }

  @Override
  public void replay(long untilMillis, Duration step, BiConsumer<Long, Map<String, String>> sink) {
    fleet.replay(
        untilMillis,
        step,
        snap -> {
          Map<String, String> pages = new LinkedHashMap<>();
          for (PodInfo p : fleet.inventory()) {
            String page = snap.pages().get(p.name());
            if (page != null) {
              pages.put(server.url(p), page);
            }
          }
          sink.accept(snap.timeMillis(), pages);
        });
  }

  @Override
  public void goLive() {
    ticker = Ticker.start(fleet, Clock.systemUTC(), 250);
  }

  @Override
  public int controlPort() {
    return server.controlPort();
  }

  @Override
  public String controlLine() {
    return String.format(
        "  fleet:     http://127.0.0.1:%d/-/inventory  (POST /-/scenario?name=saturated to change"
            + " the scenario)",
        server.controlPort());
  }

  @Override
  public void printTargets(PrintWriter out) {
    for (PodInfo p : fleet.inventory()) {
      StringBuilder labels = new StringBuilder();
      for (Map.Entry<String, String> e : p.targetLabels().entrySet()) {
        labels.append(labels.length() == 0 ? "" : ",").append(e.getKey()).append('=');
        labels.append(e.getValue());
      }
      out.printf("  %-44s %-32s %s%n", p.name(), server.url(p), labels);
    }
  }

  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.close();
      ticker = null;
    }
    if (ownsServer) {
      server.close();
    }
  }
}
