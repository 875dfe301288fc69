package dev.infermon.web;

import dev.infermon.web.api.PrometheusApi;
import dev.infermon.web.auth.Authenticator;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.JettyHandler;
import dev.infermon.web.http.Router;
import dev.infermon.web.llm.IncidentApi;
import dev.infermon.web.llm.LlmApi;
import dev.infermon.web.llm.LlmEfficiencyApi;
import dev.infermon.web.llm.LlmLintApi;
import dev.infermon.web.remotewrite.RemoteWriteHandler;
import dev.infermon.web.tls.PemKeyStore;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * infermon's HTTP server: the Prometheus HTTP API, the remote-write receiver, {@code /metrics}, and
 * the lifecycle endpoints {@code /-/healthy}, {@code /-/ready} and {@code /-/reload}. It starts
 * listening before the storage is ready, so probes and {@code /metrics} answer during WAL replay
 * while the API answers 503.
 *
 * <p>Threading: requests are served on Jetty's pool, each on one thread; {@link #close()} may be
 * called from any thread (a shutdown hook) and waits up to 5 s for requests in flight.
 */
public final class WebServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebServer.class);

  private final Server server;
  private final ServerConnector connector;
  private final PrometheusApi api;
  private final boolean tls;
  private final JettyHandler handler;
  private final RemoteWriteHandler remoteWrite; // null without the receiver
  private final AtomicBoolean closed = new AtomicBoolean();

  private WebServer(
      Server server,
      ServerConnector connector,
      PrometheusApi api,
      boolean tls,
      JettyHandler handler,
      RemoteWriteHandler remoteWrite) {
    this.server = server;
    this.connector = connector;
    this.api = api;
    this.tls = tls;
    this.handler = handler;
    this.remoteWrite = remoteWrite;
  }

  /**
   * Binds and starts serving.
   *
   * @throws IOException when the address cannot be bound or the TLS files cannot be read
   * @throws IllegalArgumentException for an invalid listen address or unusable TLS files
   */
  public static WebServer start(WebOptions options, WebServices services) throws IOException {
    InetSocketAddress address = listenAddress(options.listenAddress());
    PrometheusApi api =
        new PrometheusApi(
            services.queries,
            options.maxConcurrentQueries(),
            options.queryTimeout().toMillis(),
            services.buildInfo,
            services.configYaml,
            services.flags,
            services.targets,
            services.rules,
            System::currentTimeMillis);
    Router router = new Router();
    api.register(router);
    new LlmApi(services.dashboard, services.exports, services.llm, System::currentTimeMillis)
        .register(router);
    new LlmLintApi(services.lint, services.diagnosis, services.slo).register(router);
    new LlmEfficiencyApi(services.efficiency).register(router);
    new IncidentApi(services.diagnosis, services.rules).register(router);
    new dev.infermon.web.llm.LlmCapacityApi(services.capacity).register(router);
    new dev.infermon.web.llm.LlmReportApi(services.report).register(router);
    dev.infermon.web.ui.UiRoutes.register(router);
    lifecycle(router, options, services, api);
    router.add("/metrics", ex -> metrics(ex, services.registry), "GET");
    RemoteWriteHandler remoteWrite = null;
    if (options.remoteWriteReceiver()) {
      remoteWrite =
          new RemoteWriteHandler(
              services.appendable, options.remoteWriteMaxBodyBytes(), services.registry);
      router.addChangingState("/api/v1/write", remoteWrite, "POST");
    } else {
      router.add(
          "/api/v1/write",
          ex ->
              ex.respondText(
                  404,
                  "remote write receiver needs to be enabled with"
                      + " --web.enable-remote-write-receiver\n"),
          "POST");
    }
    GaugeWithCallback.builder()
        .name("infermon_engine_queries_running")
        .help("Queries running now.")
        .callback(cb -> cb.call(api.runningQueries()))
        .register(services.registry);
    GaugeWithCallback.builder()
        .name("infermon_engine_queries_waiting")
        .help("Queries waiting for a slot (--query.max-concurrency).")
        .callback(cb -> cb.call(api.waitingQueries()))
        .register(services.registry);
    GaugeWithCallback.builder()
        .name("infermon_engine_queries_concurrent_max")
        .help("The most queries that run at once.")
        .callback(cb -> cb.call(options.maxConcurrentQueries()))
        .register(services.registry);

    // Four idle threads (the acceptor, a selector and two for requests) rather than Jetty's eight:
    // more start under load, and each idle one costs its stack.
    QueuedThreadPool pool = new QueuedThreadPool(200, 4);
    pool.setName("web");
    pool.setDaemon(true);
    Server server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendDateHeader(true);
    ServerConnector connector;
    if (options.tls().isPresent()) {
      WebOptions.TlsFiles files = options.tls().get();
      KeyStore ks = PemKeyStore.load(files.certFile(), files.keyFile());
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setKeyStore(ks);
      ssl.setKeyStorePassword(new String(PemKeyStore.PASSWORD));
      negotiation(ssl, files);
      SecureRequestCustomizer src = new SecureRequestCustomizer();
      // Clients reach the server by IP as often as by name; the certificate is the operator's.
      src.setSniHostCheck(false);
      http.addCustomizer(src);
      connector = new ServerConnector(server, ssl, new HttpConnectionFactory(http));
    } else {
      connector = new ServerConnector(server, new HttpConnectionFactory(http));
    }
    connector.setHost(address.getHostString().isEmpty() ? null : address.getHostString());
    connector.setPort(address.getPort());
    // A query may compute for the whole timeout without touching the connection.
    connector.setIdleTimeout(Math.max(60_000, options.queryTimeout().toMillis() + 30_000));
    server.addConnector(connector);
    JettyHandler handler =
        new JettyHandler(
            router,
            Authenticator.of(options.auth()),
            options.maxRequestBodyBytes(),
            services.registry,
            options.headers());
    server.setHandler(handler);
    server.setStopTimeout(5_000);
    try {
      server.start();
    } catch (IOException e) {
      stopQuietly(server);
      throw e;
    } catch (Exception e) {
      stopQuietly(server);
      throw new IOException(
          "cannot start the HTTP server on " + options.listenAddress() + ": " + e.getMessage(), e);
    }
    boolean tls = options.tls().isPresent();
    log.info(
        "listening on {}://{}:{}",
        tls ? "https" : "http",
        address.getHostString().isEmpty() ? "0.0.0.0" : address.getHostString(),
        connector.getLocalPort());
    return new WebServer(server, connector, api, tls, handler, remoteWrite);
  }

  /** Client certificates, TLS versions and cipher suites, as a web configuration file asks. */
  private static void negotiation(SslContextFactory.Server ssl, WebOptions.TlsFiles files)
      throws IOException {
    if (files.clientCaFile().isPresent()) {
      ssl.setTrustStore(PemKeyStore.trustStore(files.clientCaFile().get()));
    }
    switch (files.clientAuth()) {
      case REQUIRE_AND_VERIFY:
        ssl.setNeedClientAuth(true);
        break;
      case VERIFY_IF_GIVEN:
        ssl.setWantClientAuth(true);
        break;
      default:
        break;
    }
    if (!files.protocols().isEmpty()) {
      ssl.setIncludeProtocols(files.protocols().toArray(new String[0]));
      // Jetty excludes SSL and TLS 1.0/1.1 by default; the file's versions are the operator's.
      ssl.setExcludeProtocols();
    }
    if (!files.cipherSuites().isEmpty()) {
      ssl.setIncludeCipherSuites(files.cipherSuites().toArray(new String[0]));
    }
    ssl.setUseCipherSuitesOrder(files.preferServerCipherSuites());
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      log.debug("stopping a server that failed to start", e);
    }
  }

  private static void lifecycle(
      Router router, WebOptions options, WebServices services, PrometheusApi api) {
    router.add("/-/healthy", ex -> ex.respondText(200, "infermon is Healthy.\n"), "GET", "HEAD");
    router.add(
        "/-/ready",
        ex -> {
          if (api.ready()) {
            ex.respondText(200, "infermon is Ready.\n" + skipped(services.startupProblems.get()));
          } else {
            ex.respondText(503, "Service Unavailable");
          }
        },
        "GET",
        "HEAD");
    router.addChangingState("/-/reload", ex -> reload(ex, options, services), "POST", "PUT");
  }

  /** Still 200: the server runs with what it could read; the lines say what it could not. */
  private static String skipped(List<String> problems) {
    if (problems.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder("Data was skipped at start-up:\n");
    for (String p : problems) {
      b.append("- ").append(p).append('\n');
    }
    return b.toString();
  }

  private static void reload(Exchange ex, WebOptions options, WebServices services) {
    if (!options.lifecycleApi()) {
      ex.respondText(403, "Lifecycle API is not enabled.");
      return;
    }
    try {
      services.reloader.reload();
      ex.respondText(200, "");
    } catch (Exception e) {
      ex.respondText(500, "failed to reload config: " + e.getMessage() + "\n");
    }
  }

  private static void metrics(Exchange ex, PrometheusRegistry registry) throws IOException {
    String accept = ex.header("Accept");
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    String contentType;
    if (accept != null && accept.contains("application/openmetrics-text")) {
      OpenMetricsTextFormatWriter w = OpenMetricsTextFormatWriter.create();
      w.write(out, registry.scrape());
      contentType = w.getContentType();
    } else {
      PrometheusTextFormatWriter w = PrometheusTextFormatWriter.create();
      w.write(out, registry.scrape());
      contentType = w.getContentType();
    }
    ex.respond(200, contentType, out.toByteArray());
  }

  /**
   * Parses {@code host:port}, {@code :port} or {@code [v6]:port}.
   *
   * @throws IllegalArgumentException naming the address when it is not one of those
   */
  static InetSocketAddress listenAddress(String s) {
    int colon = s.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException(
          "invalid listen address \"" + s + "\": expected host:port");
    }
    String host = s.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(s.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid port in listen address \"" + s + "\"");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("invalid port in listen address \"" + s + "\"");
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  /**
   * Applies what of {@code options} can change while serving, from the next request on: {@code
   * auth} (a removed token or user is refused at once) and the request body limits. The listen
   * address, TLS and the query concurrency stay those of {@link #start}; the caller refuses changes
   * to them.
   */
  public void reconfigure(WebOptions options) {
    handler.reconfigure(Authenticator.of(options.auth()), options.maxRequestBodyBytes());
    if (remoteWrite != null) {
      remoteWrite.maxBodyBytes(options.remoteWriteMaxBodyBytes());
    }
  }

  /** The port bound (useful with port 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /** {@code http} or {@code https}. */
  public String scheme() {
    return tls ? "https" : "http";
  }

  /** Whether the API is serving (the storage is ready). */
  public boolean ready() {
    return api.ready();
  }

  /** Stops accepting, lets requests in flight finish (up to 5 s), and releases the port. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      server.stop();
    } catch (Exception e) {
      log.warn("HTTP server did not stop cleanly", e);
    }
  }
}
