package dev.infermon.web;

import dev.infermon.config.app.WebConfig;
import dev.infermon.config.app.WebConfigFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the HTTP server listens and what it limits. Immutable; built by the server from flags and the
 * {@code web} section.
 *
 * @param listenAddress {@code host:port}; an empty host means every interface, port 0 a free one
 * @param maxRequestBodyBytes largest API request body (form-encoded queries); more is 413
 * @param remoteWriteMaxBodyBytes largest remote-write body, compressed and decompressed; more is
 *     413 (compressed) or 400 (decompressed)
 * @param maxConcurrentQueries {@code --query.max-concurrency}
 * @param queryTimeout {@code --query.timeout}: the longest a query waits for a slot, and what the
 *     connection idle timeout is sized after
 * @param remoteWriteReceiver {@code --web.enable-remote-write-receiver}
 * @param lifecycleApi {@code --web.enable-lifecycle}: whether {@code POST /-/reload} is allowed
 * @param auth who may call the API and UI; {@code /-/healthy} and {@code /-/ready} stay open
 * @param tls certificate and key files; empty for plain HTTP
 * @param headers added to every response (a web configuration file's {@code
 *     http_server_config.headers})
 */
public record WebOptions(
    String listenAddress,
    long maxRequestBodyBytes,
    long remoteWriteMaxBodyBytes,
    int maxConcurrentQueries,
    Duration queryTimeout,
    boolean remoteWriteReceiver,
    boolean lifecycleApi,
    WebConfig.Auth auth,
    Optional<TlsFiles> tls,
    Map<String, String> headers) {

  /**
   * PEM files of the server certificate (chain) and its private key, and how TLS is negotiated.
   *
   * @param clientAuth whether client certificates are asked for and verified
   * @param clientCaFile the CAs client certificates must chain to; required unless {@code
   *     clientAuth} is NONE
   * @param protocols TLS versions as the JDK names them; empty for Jetty's defaults
   * @param cipherSuites cipher suites; empty for the JDK's defaults
   * @param preferServerCipherSuites the server's order of {@code cipherSuites} wins
   */
  public record TlsFiles(
      Path certFile,
      Path keyFile,
      WebConfigFile.ClientAuth clientAuth,
      Optional<Path> clientCaFile,
      List<String> protocols,
      List<String> cipherSuites,
      boolean preferServerCipherSuites) {
    public TlsFiles {
      Objects.requireNonNull(certFile, "certFile");
      Objects.requireNonNull(keyFile, "keyFile");
      Objects.requireNonNull(clientAuth, "clientAuth");
      Objects.requireNonNull(clientCaFile, "clientCaFile");
      protocols = List.copyOf(protocols);
      cipherSuites = List.copyOf(cipherSuites);
      if (clientAuth != WebConfigFile.ClientAuth.NONE && clientCaFile.isEmpty()) {
        throw new IllegalArgumentException("client certificates need a client CA file");
      }
    }

    /** A certificate and key with the JDK's and Jetty's defaults, no client certificates. */
    public TlsFiles(Path certFile, Path keyFile) {
      this(
          certFile,
          keyFile,
          WebConfigFile.ClientAuth.NONE,
          Optional.empty(),
          List.of(),
          List.of(),
          false);
    }
  }

  public WebOptions {
    Objects.requireNonNull(listenAddress, "listenAddress");
    Objects.requireNonNull(queryTimeout, "queryTimeout");
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(tls, "tls");
    headers = Map.copyOf(headers);
    if (maxRequestBodyBytes <= 0 || remoteWriteMaxBodyBytes <= 0) {
      throw new IllegalArgumentException(
          "body limits must be positive: " + maxRequestBodyBytes + ", " + remoteWriteMaxBodyBytes);
    }
    if (maxConcurrentQueries < 1) {
      throw new IllegalArgumentException(
          "max concurrent queries must be at least 1: " + maxConcurrentQueries);
    }
    if (queryTimeout.isNegative() || queryTimeout.isZero()) {
      throw new IllegalArgumentException("query timeout must be positive: " + queryTimeout);
    }
  }

  /** Defaults of the {@code web} section on {@code listenAddress}, without remote write. */
  public static WebOptions defaults(String listenAddress) {
    return new WebOptions(
        listenAddress,
        WebConfig.DEFAULT_MAX_REQUEST_BODY_SIZE.bytes(),
        WebConfig.DEFAULT_REMOTE_WRITE_MAX_BODY_SIZE.bytes(),
        WebConfig.DEFAULT_MAX_CONCURRENT_QUERIES,
        Duration.ofMinutes(2),
        false,
        false,
        WebConfig.Auth.NONE,
        Optional.empty(),
        Map.of());
  }

  public WebOptions withRemoteWriteReceiver(boolean on) {
    return new WebOptions(
        listenAddress,
        maxRequestBodyBytes,
        remoteWriteMaxBodyBytes,
        maxConcurrentQueries,
        queryTimeout,
        on,
        lifecycleApi,
        auth,
        tls,
        headers);
  }

  public WebOptions withLifecycleApi(boolean on) {
    return new WebOptions(
        listenAddress,
        maxRequestBodyBytes,
        remoteWriteMaxBodyBytes,
        maxConcurrentQueries,
        queryTimeout,
        remoteWriteReceiver,
        on,
        auth,
        tls,
        headers);
  }

  public WebOptions withAuth(WebConfig.Auth a) {
    return new WebOptions(
        listenAddress,
        maxRequestBodyBytes,
        remoteWriteMaxBodyBytes,
        maxConcurrentQueries,
        queryTimeout,
        remoteWriteReceiver,
        lifecycleApi,
        a,
        tls,
        headers);
  }

  public WebOptions withTls(Optional<TlsFiles> t) {
    return new WebOptions(
        listenAddress,
        maxRequestBodyBytes,
        remoteWriteMaxBodyBytes,
        maxConcurrentQueries,
        queryTimeout,
        remoteWriteReceiver,
        lifecycleApi,
        auth,
        t,
        headers);
  }

  /** Headers added to every response ({@code http_server_config.headers}). */
  public WebOptions withHeaders(Map<String, String> h) {
    return new WebOptions(
        listenAddress,
        maxRequestBodyBytes,
        remoteWriteMaxBodyBytes,
        maxConcurrentQueries,
        queryTimeout,
        remoteWriteReceiver,
        lifecycleApi,
        auth,
        tls,
        h);
  }

  public WebOptions withLimits(
      long maxRequestBody, long remoteWriteMaxBody, int maxConcurrent, Duration timeout) {
    return new WebOptions(
        listenAddress,
        maxRequestBody,
        remoteWriteMaxBody,
        maxConcurrent,
        timeout,
        remoteWriteReceiver,
        lifecycleApi,
        auth,
        tls,
        headers);
  }
}
