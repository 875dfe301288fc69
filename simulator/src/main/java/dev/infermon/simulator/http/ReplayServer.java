package dev.infermon.simulator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Serves a {@link ReplayFleet} over HTTP: each capture on its own port at {@code /metrics} ({@code
 * control port + 1 + i}, or free ports when the control port is 0), rendered at the clock's time
 * with the Content-Type of its format, gzipped when the client accepts it; the control port answers
 * {@code GET /-/inventory} (every target with its URL, labels and capture) and {@code GET
 * /-/healthy}.
 *
 * <p>Thread-safe; a small shared pool serves every port. {@link #close()} stops all of them.
 */
public final class ReplayServer implements AutoCloseable {
  private final ReplayFleet fleet;
  private final Clock clock;
  private final String host;
  private final Listeners listeners;
  private final HttpServer control;
  private final Map<String, Integer> ports = new LinkedHashMap<>();

  /**
   * Where to listen.
   *
   * @param host the address to bind (127.0.0.1 unless told otherwise)
   * @param port the control port; 0 picks free ports for everything
   */
  public record Options(String host, int port) {
    /** Validates. */
    public Options {
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException("host must not be blank");
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
    }
  }

  private ReplayServer(ReplayFleet fleet, Options options, Clock clock) throws IOException {
    this.fleet = fleet;
    this.clock = clock;
    this.host = options.host();
    this.listeners = new Listeners(host, 2, "replay-http");
    this.control = listeners.bind(options.port());
    control.createContext("/-/inventory", this::inventory);
    control.createContext("/-/healthy", ex -> FleetServer.send(ex, 200, "text/plain", "OK\n"));
    try {
      List<ReplayTarget> targets = fleet.targets();
      for (int i = 0; i < targets.size(); i++) {
        ReplayTarget target = targets.get(i);
        int port = options.port() == 0 ? 0 : options.port() + 1 + i;
        HttpServer s = listeners.bind(port);
        s.createContext("/metrics", ex -> page(ex, target));
        ports.put(target.name(), s.getAddress().getPort());
      }
    } catch (IOException | RuntimeException e) {
      listeners.stopAll();
      throw e;
    }
    listeners.startAll();
  }

  /**
   * Binds every port and starts serving pages at {@code clock}'s time.
   *
   * @throws IOException if a port is taken
   */
  public static ReplayServer start(ReplayFleet fleet, Options options, Clock clock)
      throws IOException {
    if (fleet == null || options == null || clock == null) {
      throw new IllegalArgumentException("fleet, options and clock are required");
    }
    return new ReplayServer(fleet, options, clock);
  }

  /** The fleet served. */
  public ReplayFleet fleet() {
    return fleet;
  }

  /** The control port. */
  public int controlPort() {
    return control.getAddress().getPort();
  }

  /** {@code host:port} of a target. */
  public String hostPort(ReplayTarget target) {
    Integer port = ports.get(target.name());
    if (port == null) {
      throw new IllegalArgumentException("not served here: " + target.name());
    }
    return host + ":" + port;
  }

  /** The full URL of a target's page. */
  public String url(ReplayTarget target) {
    return "http://" + hostPort(target) + "/metrics";
  }

  /** Every target as the printed configurations list it. */
  public List<InventoryFormats.Target> scrapeTargets() {
    return scrapeTargets(fleet, this::hostPort);
  }

  /**
   * The targets of {@code fleet} at the addresses {@code hostPort} gives, path {@code /metrics}.
   */
  public static List<InventoryFormats.Target> scrapeTargets(
      ReplayFleet fleet, Function<ReplayTarget, String> hostPort) {
    return fleet.targets().stream()
        .map(
            t ->
                new InventoryFormats.Target(
                    t.name(), t.job(), hostPort.apply(t), "/metrics", t.labels()))
        .toList();
  }

  /** The inventory JSON served at {@code /-/inventory}. */
  public String inventoryJson() {
    StringBuilder sb = new StringBuilder("{\"targets\":[");
    List<ReplayTarget> targets = fleet.targets();
    for (int i = 0; i < targets.size(); i++) {
      ReplayTarget t = targets.get(i);
      sb.append(i > 0 ? "," : "").append("\n{\"name\":").append(Json.str(t.name()));
      sb.append(",\"url\":").append(Json.str(url(t)));
      sb.append(",\"job\":").append(Json.str(t.job()));
      sb.append(",\"capture\":").append(Json.str(t.capture().name()));
      sb.append(",\"content_type\":").append(Json.str(t.capture().contentType()));
      sb.append(",\"engine\":").append(Json.str(t.capture().engine()));
      sb.append(",\"samples\":").append(t.capture().samples());
      sb.append(",\"advancing_samples\":").append(t.capture().advancingSamples());
      sb.append(",\"dropped_lines\":").append(t.capture().droppedLines().size());
      sb.append(",\"uptime_seconds\":").append(t.uptime().toSeconds());
      sb.append(",\"labels\":{");
      boolean first = true;
      for (Map.Entry<String, String> e : t.labels().entrySet()) {
        sb.append(first ? "" : ", ").append(Json.str(e.getKey())).append(": ");
        sb.append(Json.str(e.getValue()));
        first = false;
      }
      sb.append("}}");
    }
    return sb.append("\n]}\n").toString();
  }

  private void inventory(HttpExchange ex) throws IOException {
    if (!ex.getRequestMethod().equals("GET")) {
      FleetServer.send(ex, 405, "text/plain", "use GET\n");
      return;
    }
    FleetServer.send(ex, 200, "application/json", inventoryJson());
  }

  private void page(HttpExchange ex, ReplayTarget target) throws IOException {
    String page = target.capture().render(fleet.factor(target, clock.millis()), target.uptime());
    FleetServer.send(ex, 200, target.capture().contentType(), page);
  }

  @Override
  public void close() {
    listeners.stopAll();
  }
}
