package dev.infermon.server.demo;

import dev.infermon.simulator.http.InventoryFormats;
import dev.infermon.simulator.http.ReplayServer;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Replayed captures as the demo's targets: each page equals its capture at the start of the history
 * and advances from there; a page is a function of time, so the backfill renders past instants and
 * the server renders the wall clock's, with nothing to tick.
 */
final class ReplayedTargets implements DemoTargets {
  private final ReplayFleet fleet;
  private final ReplayServer server;
  private final Map<String, ReplayTarget> byUrl = new HashMap<>();
  private long cursor;

  private ReplayedTargets(ReplayFleet fleet, ReplayServer server) {
    this.fleet = fleet;
    this.server = server;
    this.cursor = fleet.startMillis();
    for (ReplayTarget t : fleet.targets()) {
      byUrl.put(server.url(t), t);
    }
  }

  /** The captures, equal to themselves at {@code startMillis}, served on free ports. */
  static ReplayedTargets start(List<ReplayTarget> targets, long startMillis) throws IOException {
    ReplayFleet fleet = ReplayFleet.of(targets, startMillis);
    return new ReplayedTargets(
        fleet,
        ReplayServer.start(fleet, new ReplayServer.Options("127.0.0.1", 0), Clock.systemUTC()));
  }

  ReplayServer server() {
    return server;
  }

  @Override
  public String describe() {
    int n = fleet.targets().size();
    return n + " replayed capture" + (n == 1 ? "" : "s");
  }

  @Override
  public String prometheusYaml(int scrapeIntervalSeconds) {
    return InventoryFormats.prometheusYaml(server.scrapeTargets(), scrapeIntervalSeconds);
  }

  @Override
  public List<String> urls() {
    return fleet.targets().stream().map(server::url).toList();
  }

  @Override
  public String contentType(String url) {
    return byUrl.get(url).capture().contentType();
  }

  @Override
  public long nowMillis() {
    return cursor;
  }

  @Override
  public void replay(long untilMillis, Duration step, BiConsumer<Long, Map<String, String>> sink) {
    for (long t = cursor + step.toMillis(); t <= untilMillis; t += step.toMillis()) {
      Map<String, String> pages = new LinkedHashMap<>();
      for (ReplayTarget target : fleet.targets()) {
        pages.put(server.url(target), fleet.render(target.name(), t));
      }
      sink.accept(t, pages);
      cursor = t;
    }
  }

  @Override
  public void goLive() {
    // the server renders at the wall clock already
  }

  @Override
  public int controlPort() {
    return server.controlPort();
  }

  @Override
  public String controlLine() {
    return String.format("  captures:  http://127.0.0.1:%d/-/inventory", server.controlPort());
  }

  @Override
  public void printTargets(PrintWriter out) {
    for (ReplayTarget t : fleet.targets()) {
      StringBuilder labels = new StringBuilder("job=").append(t.job());
      for (Map.Entry<String, String> e : t.labels().entrySet()) {
        labels.append(',').append(e.getKey()).append('=').append(e.getValue());
      }
      out.printf("  %-44s %-32s %s%n", t.name(), server.url(t), labels);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
