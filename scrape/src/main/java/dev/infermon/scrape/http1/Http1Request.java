package dev.infermon.scrape.http1;

import dev.infermon.model.text.GoFloat;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * Encodes {@link Http1Client}'s GET requests: a scrape's headers ({@code Host}, {@code User-Agent},
 * {@code Accept}, {@code Accept-Encoding: gzip} when compression is on, {@code
 * X-Prometheus-Scrape-Timeout-Seconds}) then the fetch's auth and configured headers. The request
 * line and fixed headers of a {@link Hop} are encoded once; a fetch copies them and adds the rest,
 * ASCII without temporary strings or arrays.
 *
 * <p>Buffer ownership: {@link #bytes()} is this encoder's array, valid until the next {@link
 * #encode}. Threading: one fetch at a time, as its scraper.
 */
final class Http1Request {
  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] COLON = {':', ' '};

  private final String userAgent;
  private final String accept;
  private final boolean compression;
  private byte[] bytes = new byte[512];
  private Duration lastTimeout;
  private byte[] timeoutValue;

  Http1Request(String userAgent, String accept, boolean compression) {
    this.userAgent = userAgent;
    this.accept = accept;
    this.compression = compression;
  }

  /**
   * @throws Http1Exception when the URL is not an absolute {@code http://} URL
   */
  Hop hop(String url) throws Http1Exception {
    return Hop.of(url, this);
  }

  byte[] bytes() {
    return bytes;
  }

  /**
   * Encodes the request to {@code hop} into {@link #bytes()}.
   *
   * @param extra the auth and configured headers of this fetch; one named as ours replaces it
   * @return the request's length
   * @throws Http1Exception when a header name or value is invalid (the value is never shown)
   */
  int encode(Hop hop, Duration timeout, Map<String, String> extra) throws Http1Exception {
    if (!timeout.equals(lastTimeout)) {
      timeoutValue = timeoutSeconds(timeout).getBytes(StandardCharsets.US_ASCII);
      lastTimeout = timeout;
    }
    int n = put(0, hop.requestLine);
    if (!overridesFixed(extra)) {
      n = put(n, hop.fixed);
      n = put(n, timeoutValue);
      n = put(n, CRLF);
    } else { // rare: a configured header replaces one of ours
      String[] fixed = fixedHeaders(hop);
      for (int i = 0; i < fixed.length; i += 2) {
        if (!containsIgnoreCase(extra, fixed[i])) {
          n = header(n, fixed[i], fixed[i + 1]);
        }
      }
    }
    for (Map.Entry<String, String> h : extra.entrySet()) {
      n = header(n, h.getKey(), h.getValue());
    }
    return put(n, CRLF);
  }

  /** Prometheus's {@code strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)}: {@code 0.5}. */
  static String timeoutSeconds(Duration timeout) {
    return GoFloat.formatF(timeout.toNanos() / 1e9);
  }

  private String[] fixedHeaders(Hop hop) {
    String t = new String(timeoutValue, StandardCharsets.US_ASCII);
    return compression
        ? new String[] {
          "Host", hop.authority,
          "User-Agent", userAgent,
          "Accept", accept,
          "Accept-Encoding", "gzip",
          "X-Prometheus-Scrape-Timeout-Seconds", t
        }
        : new String[] {
          "Host", hop.authority,
          "User-Agent", userAgent,
          "Accept", accept,
          "X-Prometheus-Scrape-Timeout-Seconds", t
        };
  }

  private boolean overridesFixed(Map<String, String> extra) {
    for (String k : extra.keySet()) {
      if (k.equalsIgnoreCase("Host")
          || k.equalsIgnoreCase("User-Agent")
          || k.equalsIgnoreCase("Accept")
          || k.equalsIgnoreCase("Accept-Encoding")
          || k.equalsIgnoreCase("X-Prometheus-Scrape-Timeout-Seconds")) {
        return true;
      }
    }
    return false;
  }

  private static boolean containsIgnoreCase(Map<String, String> m, String name) {
    for (String k : m.keySet()) {
      if (k.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Appends {@code name: value}; refuses a name that is not a token or a value that would end the
   * line (header injection), naming the header but never its value (it may be a secret).
   */
  private int header(int n, String name, String value) throws Http1Exception {
    if (name.isEmpty()) {
      throw new Http1Exception("invalid header field name \"\"");
    }
    for (int i = 0; i < name.length(); i++) {
      char ch = name.charAt(i);
      if (ch <= ' ' || ch >= 127 || ch == ':') {
        throw new Http1Exception("invalid header field name \"" + name + "\"");
      }
    }
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      if (ch == '\r' || ch == '\n' || ch == 0) {
        throw new Http1Exception("invalid header field value for \"" + name + "\"");
      }
    }
    n = putText(n, name);
    n = put(n, COLON);
    n = putText(n, value);
    return put(n, CRLF);
  }

  /** Appends {@code s}: ASCII as is, without a temporary array; else UTF-8, as Go's client. */
  private int putText(int n, String s) {
    int len = s.length();
    for (int i = 0; i < len; i++) {
      if (s.charAt(i) >= 0x80) {
        return put(n, s.getBytes(StandardCharsets.UTF_8));
      }
    }
    if (n + len > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, n + len));
    }
    for (int i = 0; i < len; i++) {
      bytes[n + i] = (byte) s.charAt(i);
    }
    return n + len;
  }

  private int put(int n, byte[] b) {
    if (n + b.length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, n + b.length));
    }
    System.arraycopy(b, 0, bytes, n, b.length);
    return n + b.length;
  }

  /** Where a request goes: the parsed URL and its encoded request line and fixed headers. */
  static final class Hop {
    final URI uri;
    final String host; // for the socket: no IPv6 brackets
    final int port;
    final String authority; // the Host header
    final byte[] requestLine;
    final byte[]
        fixed; // Host .. "X-Prometheus-Scrape-Timeout-Seconds: ", the value comes per fetch

    private Hop(URI uri, String host, int port, String authority, String target, Http1Request r) {
      this.uri = uri;
      this.host = host;
      this.port = port;
      this.authority = authority;
      this.requestLine = ("GET " + target + " HTTP/1.1\r\n").getBytes(StandardCharsets.UTF_8);
      this.fixed =
          ("Host: "
                  + authority
                  + "\r\nUser-Agent: "
                  + r.userAgent
                  + "\r\nAccept: "
                  + r.accept
                  + (r.compression ? "\r\nAccept-Encoding: gzip" : "")
                  + "\r\nX-Prometheus-Scrape-Timeout-Seconds: ")
              .getBytes(StandardCharsets.UTF_8);
    }

    static Hop of(String url, Http1Request r) throws Http1Exception {
      URI u;
      try {
        u = new URI(url);
      } catch (java.net.URISyntaxException e) {
        throw new Http1Exception("invalid target URL: " + e.getMessage());
      }
      String host = u.getHost();
      if (host == null || !"http".equalsIgnoreCase(u.getScheme())) {
        throw new Http1Exception("invalid target URL: " + url);
      }
      int port = u.getPort() < 0 ? 80 : u.getPort();
      String authority = u.getRawAuthority();
      int at = authority.lastIndexOf('@');
      if (at >= 0) {
        authority = authority.substring(at + 1); // userinfo never goes into Host
      }
      String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
      String target = u.getRawQuery() == null ? path : path + "?" + u.getRawQuery();
      String socketHost =
          host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
      return new Hop(u, socketHost, port, authority, target, r);
    }
  }
}
