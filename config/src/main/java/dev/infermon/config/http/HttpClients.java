package dev.infermon.config.http;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.TlsConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executor;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Builds the JDK {@link HttpClient} of a scrape pool, a remote-write endpoint or a remote query API
 * from its {@code HttpClientConfig}: redirects, HTTP/2 (for TLS; plain HTTP stays HTTP/1.1, no
 * upgrade round trip), and TLS ({@code ca_file} or {@code ca}, client {@code cert_file}/{@code
 * key_file} in PEM with a PKCS#8 key, {@code server_name} for SNI, {@code insecure_skip_verify},
 * {@code min_version}).
 */
public final class HttpClients {
  private HttpClients() {}

  /**
   * A client for {@code cfg}.
   *
   * @param executor runs the client's asynchronous work; null for the JDK's default pool (whose
   *     idle threads linger 60 s). The caller owns it.
   * @throws IllegalArgumentException when the TLS material does not load, naming the problem
   */
  public static HttpClient create(HttpClientConfig cfg, Executor executor) {
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(30))
            .followRedirects(
                cfg.followRedirects() ? HttpClient.Redirect.NORMAL : HttpClient.Redirect.NEVER)
            .version(cfg.enableHttp2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
    if (executor != null) {
      b.executor(executor);
    }
    TlsConfig tls = cfg.tlsConfig();
    if (!tls.equals(TlsConfig.DEFAULT)) {
      try {
        b.sslContext(sslContext(tls));
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalArgumentException("invalid tls_config: " + e.getMessage(), e);
      }
      SSLParameters p = new SSLParameters();
      if (!tls.serverName().isEmpty()) {
        p.setServerNames(List.of(new SNIHostName(tls.serverName())));
      }
      if (!tls.minVersion().isEmpty()) {
        p.setProtocols(protocolsFrom(tls.minVersion(), tls.maxVersion()));
      }
      b.sslParameters(p);
    }
    return b.build();
  }

  private static String[] protocolsFrom(String min, String max) {
    List<String> all = List.of("TLS10", "TLS11", "TLS12", "TLS13");
    List<String> names = List.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");
    int lo = Math.max(0, all.indexOf(min));
    int hi = max.isEmpty() ? all.size() - 1 : all.indexOf(max);
    List<String> out = new ArrayList<>();
    for (int i = lo; i <= hi; i++) {
      out.add(names.get(i));
    }
    return out.toArray(new String[0]);
  }

  static SSLContext sslContext(TlsConfig tls) throws GeneralSecurityException, IOException {
    TrustManager[] tms;
    if (tls.insecureSkipVerify()) {
      tms = new TrustManager[] {new TrustAll()};
    } else if (!tls.caFile().isEmpty() || !tls.ca().isEmpty()) {
      String pem = tls.ca().isEmpty() ? Files.readString(Path.of(tls.caFile())) : tls.ca();
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      ks.load(null, null);
      int i = 0;
      for (Certificate c : certificates(pem)) {
        ks.setCertificateEntry("ca" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      tms = tmf.getTrustManagers();
    } else {
      tms = null;
    }
    KeyManagerFactory kmf = null;
    String certPem = tls.cert().isEmpty() ? read(tls.certFile()) : tls.cert();
    String keyPem = tls.key().isSet() ? tls.key().reveal() : read(tls.keyFile());
    if (!certPem.isEmpty() && !keyPem.isEmpty()) {
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      ks.load(null, null);
      char[] pw = new char[0];
      Collection<? extends Certificate> chain = certificates(certPem);
      ks.setKeyEntry("client", privateKey(keyPem), pw, chain.toArray(new Certificate[0]));
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, pw);
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf == null ? null : kmf.getKeyManagers(), tms, null);
    return ctx;
  }

  private static String read(String file) throws IOException {
    return file.isEmpty() ? "" : Files.readString(Path.of(file), StandardCharsets.UTF_8);
  }

  private static Collection<? extends Certificate> certificates(String pem)
      throws GeneralSecurityException {
    return CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  private static PrivateKey privateKey(String pem) throws GeneralSecurityException {
    String b64 =
        pem.replaceAll("-----BEGIN [A-Z ]*PRIVATE KEY-----", "")
            .replaceAll("-----END [A-Z ]*PRIVATE KEY-----", "")
            .replaceAll("\\s", "");
    byte[] der = Base64.getDecoder().decode(b64);
    GeneralSecurityException last = null;
    for (String alg : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw new GeneralSecurityException("key_file is not a PKCS#8 RSA, EC or Ed25519 key", last);
  }

  /**
   * {@code insecure_skip_verify}: accepts any certificate for any host. Being an extended trust
   * manager, it also replaces the HTTPS host name check, which the JDK otherwise performs.
   */
  private static final class TrustAll extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
