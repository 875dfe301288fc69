package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.WebConfigFile;
import dev.infermon.web.WebOptions;
import dev.infermon.web.WebServer;
import dev.infermon.web.WebServices;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Optional;

/**
 * The HTTP server of the API, the UI and the lifecycle endpoints, from the {@code web} section and
 * the {@code --web.*} and {@code --query.*} flags (a given flag wins over the file). It listens
 * first, so {@code /-/healthy} and {@code /metrics} answer while the storage opens.
 *
 * <p>Reload: {@code web.auth} and the request body limits take effect from the next request on (a
 * token removed from the file is refused at once); {@code web.listen_address}, {@code web.tls} and
 * {@code web.max_concurrent_queries} are bound at start and refused.
 */
final class WebComponent implements Component {
  private final ServeSettings settings;
  private final Optional<WebConfigFile> webFile;
  private final WebServices services;
  private volatile WebServer server;
  private WebOptions options;

  /**
   * @param webFile {@code --web.config.file}, read once at start: its TLS, basic-auth users and
   *     headers take the place of the {@code web} section's ({@link WebSetup})
   */
  WebComponent(ServeSettings settings, Optional<WebConfigFile> webFile, WebServices services) {
    this.settings = settings;
    this.webFile = webFile;
    this.services = services;
  }

  @Override
  public String name() {
    return "web";
  }

  @Override
  public void start(Config cfg) throws IOException {
    options = options(cfg);
    server = WebServer.start(options, services);
  }

  @Override
  public void stop() {
    server.close();
  }

  @Override
  public Change prepare(Config current, Config next) throws Refused {
    WebOptions n = options(next);
    if (!n.listenAddress().equals(options.listenAddress())) {
      throw new Refused("web.listen_address", "the port is bound at start");
    }
    if (!n.tls().equals(options.tls())) {
      throw new Refused("web.tls", "the listener's certificate is loaded at start");
    }
    if (n.maxConcurrentQueries() != options.maxConcurrentQueries()) {
      throw new Refused("web.max_concurrent_queries", "the query gate is sized at start");
    }
    if (n.equals(options)) {
      return Change.NONE;
    }
    return () -> {
      server.reconfigure(n);
      options = n;
    };
  }

  /** The server; null before start. */
  WebServer server() {
    return server;
  }

  /**
   * Where alerts link back to: {@code --web.external-url}, else the listen address, or the host
   * name when bound to all.
   */
  String externalUrl() {
    if (settings.externalUrl().isPresent()) {
      return settings.externalUrl().get();
    }
    String listen = options.listenAddress();
    int colon = listen.lastIndexOf(':');
    String host = colon < 0 ? listen : listen.substring(0, colon);
    if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("[::]")) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        host = "localhost";
      }
    }
    return server.scheme() + "://" + host + ":" + server.port();
  }

  private WebOptions options(Config cfg) {
    return WebSetup.options(cfg, settings, webFile);
  }
}
