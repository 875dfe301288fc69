package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.ConfigException;
import dev.infermon.config.WebConfigFileLoader;
import dev.infermon.config.app.WebConfig;
import dev.infermon.config.app.WebConfigFile;
import dev.infermon.web.WebOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP server's options from the flags, the {@code web} section and, with {@code
 * --web.config.file}, Prometheus's web configuration file: its TLS settings and basic-auth users
 * take the place of {@code web.tls} and {@code web.auth.basic_users} (setting both is refused), its
 * headers go on every response. Bearer tokens stay in {@code web.auth}. Stateless.
 */
final class WebSetup {
  private WebSetup() {}

  /**
   * The web configuration file, when one is given.
   *
   * @throws ConfigException naming the file, line and key of each problem
   * @throws IllegalArgumentException when {@code cfg} also sets TLS or basic-auth users
   */
  static Optional<WebConfigFile> load(ServeSettings settings, Config cfg) throws ConfigException {
    if (settings.webConfigFile().isEmpty()) {
      return Optional.empty();
    }
    Path file = settings.webConfigFile().get();
    WebConfigFile f = WebConfigFileLoader.load(file);
    WebConfig w = cfg.web();
    if (!w.tls().certFile().isEmpty() || !w.auth().basicUsers().isEmpty()) {
      throw new IllegalArgumentException(
          "--web.config.file="
              + file
              + " and web.tls or web.auth.basic_users of "
              + settings.configFile()
              + " are both set; keep TLS and basic-auth users in one of them");
    }
    return Optional.of(f);
  }

  static WebOptions options(Config cfg, ServeSettings settings, Optional<WebConfigFile> file) {
    WebConfig w = cfg.web();
    Optional<WebOptions.TlsFiles> tls =
        w.tls().certFile().isEmpty()
            ? Optional.empty()
            : Optional.of(
                new WebOptions.TlsFiles(Path.of(w.tls().certFile()), Path.of(w.tls().keyFile())));
    WebConfig.Auth auth = w.auth();
    Map<String, String> headers = Map.of();
    if (file.isPresent()) {
      WebConfigFile f = file.get();
      tls = f.tls().map(WebSetup::tls);
      auth = new WebConfig.Auth(auth.bearerTokens(), f.basicUsers());
      headers = f.headers();
    }
    return new WebOptions(
        settings.listenAddress().orElse(w.listenAddress()),
        w.maxRequestBodySize().bytes(),
        w.remoteWriteMaxBodySize().bytes(),
        settings.queryMaxConcurrency().orElse(w.maxConcurrentQueries()),
        settings.queryTimeout(),
        settings.remoteWriteReceiver(),
        settings.lifecycleApi(),
        auth,
        tls,
        headers);
  }

  private static WebOptions.TlsFiles tls(WebConfigFile.ServerTls t) {
    return new WebOptions.TlsFiles(
        Path.of(t.certFile()),
        Path.of(t.keyFile()),
        t.clientAuth(),
        t.clientCaFile().isEmpty() ? Optional.empty() : Optional.of(Path.of(t.clientCaFile())),
        t.protocols(),
        t.cipherSuites(),
        t.preferServerCipherSuites());
  }
}
