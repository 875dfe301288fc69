package dev.infermon.simulator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.NimPod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Refusal;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.TrtllmPod;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

/**
 * Serves a {@link Fleet} over HTTP. The control port answers {@code GET /-/inventory} (JSON),
 * {@code POST /-/scenario?name=...[&pod=...]} and {@code GET /-/healthy}; each target's page is on
 * its own port ({@code control port + 1 + i}, or ephemeral ports when the control port is 0) at
 * {@code /metrics}, or, with one port, at {@code /pods/<name>/metrics} on the control port. A
 * target that is restarting answers 503. Pages are gzipped when the client accepts it.
 *
 * <p>Thread-safe; a small shared pool serves every port. {@link #close()} stops all of them.
 */
public final class FleetServer implements AutoCloseable {
  /** The content type of text format 0.0.4, as prometheus_client and dcgm-exporter send it. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Fleet fleet;
  private final String host;
  private final boolean portPerTarget;
  private final Listeners listeners;
  private final HttpServer control;
  private final Map<String, Integer> ports = new LinkedHashMap<>();

  /**
   * Where to listen.
   *
   * @param host the address to bind (127.0.0.1 unless told otherwise)
   * @param port the control port; 0 picks free ports for everything
   * @param portPerTarget one port per target (as scrapers expect) or everything on one port
   */
  public record Options(String host, int port, boolean portPerTarget) {
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

  private FleetServer(Fleet fleet, Options options) throws IOException {
    this.fleet = fleet;
    this.host = options.host();
    this.portPerTarget = options.portPerTarget();
    this.listeners = new Listeners(host, 4, "fleet-http");
    this.control = listeners.bind(options.port());
    control.createContext("/-/inventory", this::inventory);
    control.createContext("/-/scenario", this::scenario);
    control.createContext("/-/healthy", ex -> send(ex, 200, "text/plain", "OK\n"));
    if (!portPerTarget) {
      control.createContext("/pods/", this::sharedPortPage);
    }
    try {
      if (portPerTarget) {
        List<PodInfo> targets = fleet.inventory();
        for (int i = 0; i < targets.size(); i++) {
          PodInfo target = targets.get(i);
          String name = target.name();
          int port = options.port() == 0 ? 0 : options.port() + 1 + i;
          HttpServer s = listeners.bind(port);
          s.createContext(pagePath(target), ex -> page(ex, name));
          if (target.backend() == Backend.TRTLLM) {
            // trtllm-serve's /metrics is its JSON iteration stats ("[]" without any)
            s.createContext("/metrics", ex -> send(ex, 200, "application/json", "[]"));
          }
          ports.put(name, s.getAddress().getPort());
        }
      }
      // the router in front of the pods knows each by its own address, as its scrape's instance
      fleet.routerAddresses(this::instance);
    } catch (IOException | RuntimeException e) {
      listeners.stopAll();
      throw e;
    }
    listeners.startAll();
  }

  /**
   * Binds every port and starts serving.
   *
   * @throws IOException if a port is taken
   */
  public static FleetServer start(Fleet fleet, Options options) throws IOException {
    return new FleetServer(fleet, options);
  }

  /** The control port. */
  public int controlPort() {
    return control.getAddress().getPort();
  }

  /** {@code host:port} of a target (the control port when all share one). */
  public String hostPort(PodInfo target) {
    int port = portPerTarget ? ports.get(target.name()) : controlPort();
    return host + ":" + port;
  }

  /**
   * The {@code instance} a target is scraped as: its {@code host:port}, or, when every target
   * shares the control port, {@link #sharedPortInstance} (the printed configs set it), so that each
   * pod keeps an instance of its own, as Kubernetes discovery gives each pod its own address, and
   * the routers' per-pod series (production-stack's {@code server}, smg's {@code worker} URLs) name
   * one pod each.
   */
  public String instance(PodInfo target) {
    return portPerTarget ? hostPort(target) : sharedPortInstance(target, controlPort());
  }

  /** The instance of a target served at {@code /pods/<name>/...} on shared port {@code port}. */
  public static String sharedPortInstance(PodInfo target, int port) {
    return target.name() + ":" + port;
  }

  /**
   * The targets as a scrape configuration lists them ({@link InventoryFormats#prometheusYaml}):
   * with one port, each with its {@link #instance} as a target label.
   */
  public List<InventoryFormats.Target> scrapeTargets() {
    return InventoryFormats.targets(
        fleet.inventory(),
        this::hostPort,
        this::metricsPath,
        portPerTarget ? null : this::instance);
  }

  /** The path of a target's page. */
  public String metricsPath(PodInfo target) {
    return portPerTarget ? pagePath(target) : "/pods/" + target.name() + pagePath(target);
  }

  /**
   * Where the engine serves its page: trtllm-serve at {@code /prometheus/metrics}, NVIDIA NIM at
   * {@code /v1/metrics}, the others at {@code /metrics}.
   */
  public static String pagePath(PodInfo target) {
    switch (target.backend()) {
      case TRTLLM:
        return TrtllmPod.METRICS_PATH;
      case NIM:
        return NimPod.METRICS_PATH;
      default:
        return "/metrics";
    }
  }

  /** The full URL of a target's page. */
  public String url(PodInfo target) {
    return "http://" + hostPort(target) + metricsPath(target);
  }

  /** The inventory JSON served at {@code /-/inventory}. */
  public String inventoryJson() {
    return InventoryFormats.inventoryJson(fleet.inventory(), p -> hostPort(p) + metricsPath(p));
  }

  private void inventory(HttpExchange ex) throws IOException {
    if (!ex.getRequestMethod().equals("GET")) {
      send(ex, 405, "text/plain", "use GET\n");
      return;
    }
    send(ex, 200, "application/json", inventoryJson());
  }

  /**
   * Why a browser request from another site to change the scenario is refused (null: it is not), by
   * the rule of infermon's web server: {@code Sec-Fetch-Site} must be {@code same-origin} or {@code
   * none}, else {@code Origin}, when sent, must be this server's; clients that are no browser send
   * neither.
   */
  static String crossSite(HttpExchange ex) {
    String site = ex.getRequestHeaders().getFirst("Sec-Fetch-Site");
    if (site != null) {
      String s = site.trim().toLowerCase(java.util.Locale.ROOT);
      return s.equals("same-origin") || s.equals("none")
          ? null
          : "cross-site request refused (Sec-Fetch-Site: " + site + ")";
    }
    String origin = ex.getRequestHeaders().getFirst("Origin");
    String own = "http://" + ex.getRequestHeaders().getFirst("Host");
    if (origin != null && !origin.trim().equalsIgnoreCase(own)) {
      return "cross-site request refused (Origin: " + origin + ")";
    }
    return null;
  }

  private void scenario(HttpExchange ex) throws IOException {
    if (!ex.getRequestMethod().equals("POST")) {
      send(ex, 405, "text/plain", "use POST /-/scenario?name=...&pod=...\n");
      return;
    }
    String refused = crossSite(ex);
    if (refused != null) {
      send(ex, 403, "text/plain", refused + "\n");
      return;
    }
    Map<String, String> q = query(ex.getRequestURI().getRawQuery());
    try {
      String name = q.get("name");
      if (name == null) {
        throw new IllegalArgumentException("missing parameter: name");
      }
      Scenario s = Scenario.fromCliName(name);
      String pod = q.get("pod");
      if (pod == null || pod.isEmpty()) {
        fleet.setScenario(s);
        send(ex, 200, "text/plain", "scenario " + s + " applied to the fleet\n");
      } else {
        fleet.setScenario(s, pod);
        send(ex, 200, "text/plain", "scenario " + s + " applied to " + pod + "\n");
      }
    } catch (IllegalArgumentException e) {
      send(ex, 400, "text/plain", e.getMessage() + "\n");
    }
  }

  private void sharedPortPage(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    String rest = path.substring("/pods/".length());
    int slash = rest.indexOf('/');
    String name = slash < 0 ? rest : rest.substring(0, slash);
    Optional<PodInfo> target =
        fleet.inventory().stream().filter(p -> p.name().equals(name)).findFirst();
    if (slash < 0
        || !rest.substring(slash).equals(target.map(FleetServer::pagePath).orElse("/metrics"))) {
      send(ex, 404, "text/plain", "not found: " + path + "\n");
      return;
    }
    page(ex, name);
  }

  private void page(HttpExchange ex, String name) throws IOException {
    Optional<String> page;
    try {
      page = fleet.render(name);
    } catch (IllegalArgumentException e) {
      send(ex, 404, "text/plain", e.getMessage() + "\n");
      return;
    }
    if (page.isEmpty()) {
      Optional<Refusal> refused = fleet.refusal(name);
      if (refused.isPresent()) {
        Refusal r = refused.get();
        send(ex, r.status(), r.contentType(), r.body());
        return;
      }
      send(ex, 503, "text/plain", name + " is restarting\n");
      return;
    }
    send(ex, 200, CONTENT_TYPE, page.get());
  }

  /** Answers with {@code body}, gzipped when the client accepts it (ReplayServer's too). */
  static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    try (ex) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String accept = ex.getRequestHeaders().getFirst("Accept-Encoding");
      if (accept != null && accept.toLowerCase(Locale.ROOT).contains("gzip") && status == 200) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(bytes.length / 4 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(buf)) {
          gz.write(bytes);
        }
        bytes = buf.toByteArray();
        ex.getResponseHeaders().set("Content-Encoding", "gzip");
      }
      ex.getResponseHeaders().set("Content-Type", type);
      boolean head = ex.getRequestMethod().equals("HEAD");
      ex.sendResponseHeaders(status, head ? -1 : bytes.length);
      if (!head) {
        try (OutputStream out = ex.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String part : raw.split("&")) {
      int eq = part.indexOf('=');
      String k = eq < 0 ? part : part.substring(0, eq);
      String v = eq < 0 ? "" : part.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  @Override
  public void close() {
    listeners.stopAll();
  }
}
