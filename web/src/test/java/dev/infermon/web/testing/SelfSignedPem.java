package dev.infermon.web.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with the JDK's keytool and exported
 * as the PEM files a web config names ({@code cert_file}, {@code key_file}): TLS tests use a real
 * certificate, not a trust-all shortcut.
 *
 * @param cert the certificate's PEM file
 * @param key the private key's PEM file (PKCS #8)
 */
public record SelfSignedPem(Path cert, Path key) {
  private static final String PASS = "changeit";

  /**
   * Writes {@code cert.pem}, {@code key.pem} (and the keystore they came from) into {@code dir}.
   */
  public static SelfSignedPem create(Path dir) throws Exception {
    Path ks = dir.resolve("ks.p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "s",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=localhost",
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                ks.toString(),
                "-storepass",
                PASS,
                "-keypass",
                PASS)
            .redirectErrorStream(true)
            .start();
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("keytool did not finish in 60 s");
    }
    if (p.exitValue() != 0) {
      throw new IOException("keytool failed (exit " + p.exitValue() + "): " + out);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, PASS.toCharArray());
    }
    Certificate cert = store.getCertificate("s");
    byte[] key = store.getKey("s", PASS.toCharArray()).getEncoded();
    Path certFile = dir.resolve("cert.pem");
    Path keyFile = dir.resolve("key.pem");
    Files.writeString(certFile, pem("CERTIFICATE", cert.getEncoded()));
    Files.writeString(keyFile, pem("PRIVATE KEY", key));
    return new SelfSignedPem(certFile, keyFile);
  }

  private static String pem(String type, byte[] der) {
    Base64.Encoder mime = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
    return "-----BEGIN "
        + type
        + "-----\n"
        + mime.encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
