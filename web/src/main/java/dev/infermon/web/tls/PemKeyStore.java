package dev.infermon.web.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds an in-memory key store from a PEM certificate chain and a PEM private key, with JDK APIs
 * only: PKCS#8 keys ({@code BEGIN PRIVATE KEY}, RSA, EC or EdDSA) and PKCS#1 RSA keys ({@code BEGIN
 * RSA PRIVATE KEY}, wrapped into PKCS#8 here). Encrypted keys are refused with a message saying so.
 * Stateless.
 */
public final class PemKeyStore {
  /** The password of the returned store; it never leaves the process. */
  public static final char[] PASSWORD = "infermon".toCharArray();

  public static final String ALIAS = "server";

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");

  private PemKeyStore() {}

  /**
   * Loads {@code certFile} (the server certificate first, then intermediates) and {@code keyFile}.
   *
   * @throws IOException when a file cannot be read
   * @throws IllegalArgumentException naming the file when its contents are not usable
   */
  public static KeyStore load(Path certFile, Path keyFile) throws IOException {
    List<Certificate> chain = certificates(certFile);
    PrivateKey key = privateKey(keyFile);
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry(ALIAS, key, PASSWORD, chain.toArray(new Certificate[0]));
      return ks;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "TLS key " + keyFile + " does not fit certificate " + certFile + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * A trust store of every certificate in a PEM file: the CAs that client certificates must chain
   * to ({@code client_ca_file}).
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException naming the file when it holds no usable certificate
   */
  public static KeyStore trustStore(Path caFile) throws IOException {
    List<Certificate> cas = certificates(caFile);
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      for (int i = 0; i < cas.size(); i++) {
        ks.setCertificateEntry("ca-" + i, cas.get(i));
      }
      return ks;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "client CA file " + caFile + " is not usable: " + e.getMessage(), e);
    }
  }

  static List<Certificate> certificates(Path file) throws IOException {
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    List<Certificate> out = new ArrayList<>();
    try {
      CertificateFactory cf = CertificateFactory.getInstance("X.509");
      Matcher m = BLOCK.matcher(pem);
      while (m.find()) {
        if (m.group(1).equals("CERTIFICATE")) {
          out.add(cf.generateCertificate(new ByteArrayInputStream(decode(m.group(2)))));
        }
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "TLS certificate file " + file + " is not valid PEM: " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          "TLS certificate file " + file + " holds no \"BEGIN CERTIFICATE\" block");
    }
    return out;
  }

  static PrivateKey privateKey(Path file) throws IOException {
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    Matcher m = BLOCK.matcher(pem);
    while (m.find()) {
      String type = m.group(1);
      byte[] der;
      try {
        der = decode(m.group(2));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("TLS key file " + file + " is not valid PEM", e);
      }
      switch (type) {
        case "PRIVATE KEY":
          return pkcs8(der, file);
        case "RSA PRIVATE KEY":
          return pkcs8(rsaPkcs1ToPkcs8(der), file);
        case "ENCRYPTED PRIVATE KEY":
          throw new IllegalArgumentException(
              "TLS key file " + file + " is encrypted; give an unencrypted PKCS#8 key");
        case "EC PRIVATE KEY":
          throw new IllegalArgumentException(
              "TLS key file "
                  + file
                  + " is a SEC1 EC key; convert it with `openssl pkcs8 -topk8 -nocrypt`");
        default:
          // another block (parameters, a certificate): keep looking
      }
    }
    throw new IllegalArgumentException("TLS key file " + file + " holds no private key block");
  }

  private static PrivateKey pkcs8(byte[] der, Path file) {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String alg : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"}) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // not this algorithm; try the next
      }
    }
    throw new IllegalArgumentException("TLS key file " + file + ": unsupported private key");
  }

  private static byte[] decode(String base64) {
    return Base64.getMimeDecoder().decode(base64.trim());
  }

  /**
   * Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo: SEQUENCE { INTEGER 0, SEQUENCE { OID
   * rsaEncryption, NULL }, OCTET STRING { pkcs1 } }.
   */
  static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
    byte[] algorithm = {
      0x30,
      0x0d,
      0x06,
      0x09,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0x86,
      (byte) 0xf7,
      0x0d,
      0x01,
      0x01,
      0x01,
      0x05,
      0x00
    };
    byte[] version = {0x02, 0x01, 0x00};
    byte[] octet = tlv(0x04, pkcs1);
    byte[] inner = new byte[version.length + algorithm.length + octet.length];
    System.arraycopy(version, 0, inner, 0, version.length);
    System.arraycopy(algorithm, 0, inner, version.length, algorithm.length);
    System.arraycopy(octet, 0, inner, version.length + algorithm.length, octet.length);
    return tlv(0x30, inner);
  }

  private static byte[] tlv(int tag, byte[] value) {
    int len = value.length;
    byte[] lenBytes;
    if (len < 0x80) {
      lenBytes = new byte[] {(byte) len};
    } else if (len < 0x100) {
      lenBytes = new byte[] {(byte) 0x81, (byte) len};
    } else if (len < 0x10000) {
      lenBytes = new byte[] {(byte) 0x82, (byte) (len >> 8), (byte) len};
    } else {
      lenBytes = new byte[] {(byte) 0x83, (byte) (len >> 16), (byte) (len >> 8), (byte) len};
    }
    byte[] out = new byte[1 + lenBytes.length + len];
    out[0] = (byte) tag;
    System.arraycopy(lenBytes, 0, out, 1, lenBytes.length);
    System.arraycopy(value, 0, out, 1 + lenBytes.length, len);
    return out;
  }
}
