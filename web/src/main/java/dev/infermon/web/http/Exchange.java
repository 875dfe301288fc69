package dev.infermon.web.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * One HTTP request and the response being built for it. Handlers read parameters and the body, then
 * call {@link #respond}; the server writes the response after the handler returns, so a handler
 * never touches the network.
 *
 * <p>Threading: confined to the thread that serves the request.
 *
 * <p>Parameters follow Go's {@code Request.FormValue}: a form-encoded POST body's values come
 * before the URL query's.
 */
public final class Exchange {
  private final Request request;
  private final long maxBodyBytes;
  private byte[] body;
  private Map<String, List<String>> form;
  private String pathParam = "";

  private int status = 200;
  private String contentType = "text/plain; charset=utf-8";
  private byte[] responseBody = new byte[0];
  private final Map<String, String> responseHeaders = new LinkedHashMap<>();

  Exchange(Request request, long maxBodyBytes) {
    this.request = request;
    this.maxBodyBytes = maxBodyBytes;
  }

  public String method() {
    return request.getMethod();
  }

  public String path() {
    return request.getHttpURI().getPath();
  }

  /** A request header, or null. */
  public String header(String name) {
    return request.getHeaders().get(name);
  }

  /** This server's origin as the request reached it: {@code scheme://host[:port]}. */
  public String origin() {
    return request.getHttpURI().getScheme() + "://" + request.getHttpURI().getAuthority();
  }

  /** The variable part of a route such as {@code /api/v1/label/<name>/values}. */
  public String pathParam() {
    return pathParam;
  }

  void pathParam(String value) {
    this.pathParam = value;
  }

  /** The first value of a parameter, or the empty string (Go's {@code FormValue}). */
  public String param(String name) throws BodyTooLargeException, IOException {
    List<String> v = form().get(name);
    return v == null || v.isEmpty() ? "" : v.get(0);
  }

  /** Every value of a parameter, body values first. */
  public List<String> params(String name) throws BodyTooLargeException, IOException {
    return form().getOrDefault(name, List.of());
  }

  /** Only the URL query's values of a parameter (Go's {@code r.URL.Query().Get}). */
  public String queryParam(String name) {
    List<String> v = decodeForm(request.getHttpURI().getQuery()).get(name);
    return v == null || v.isEmpty() ? "" : v.get(0);
  }

  private Map<String, List<String>> form() throws BodyTooLargeException, IOException {
    if (form == null) {
      Map<String, List<String>> f = new LinkedHashMap<>();
      if (isFormPost()) {
        merge(f, decodeForm(new String(body(), StandardCharsets.UTF_8)));
      }
      merge(f, decodeForm(request.getHttpURI().getQuery()));
      form = f;
    }
    return form;
  }

  private boolean isFormPost() {
    String m = method();
    String ct = header("Content-Type");
    return (m.equals("POST") || m.equals("PUT") || m.equals("PATCH"))
        && ct != null
        && ct.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded");
  }

  private static void merge(Map<String, List<String>> into, Map<String, List<String>> from) {
    for (Map.Entry<String, List<String>> e : from.entrySet()) {
      into.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
    }
  }

  /** Decodes {@code a=1&b=2}; a malformed escape keeps the text as it is, as lenient as Go. */
  static Map<String, List<String>> decodeForm(String s) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (s == null || s.isEmpty()) {
      return out;
    }
    for (String pair : s.split("[&;]")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.computeIfAbsent(unescape(k), x -> new ArrayList<>()).add(unescape(v));
    }
    return out;
  }

  private static String unescape(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s;
    }
  }

  /**
   * The request body, read once, at most the limit given to the server.
   *
   * @throws BodyTooLargeException when the body is longer than the limit
   */
  public byte[] body() throws BodyTooLargeException, IOException {
    if (body == null) {
      body = readBody(maxBodyBytes);
    }
    return body;
  }

  /** The body with a limit of its own (the remote-write receiver has a larger one). */
  public byte[] body(long limit) throws BodyTooLargeException, IOException {
    if (body == null) {
      body = readBody(limit);
    }
    return body;
  }

  private byte[] readBody(long limit) throws BodyTooLargeException, IOException {
    long declared = request.getLength();
    if (declared > limit) {
      throw new BodyTooLargeException(limit);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 512);
    byte[] buf = new byte[8192];
    long total = 0;
    try (InputStream in = Content.Source.asInputStream(request)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        total += n;
        if (total > limit) {
          throw new BodyTooLargeException(limit);
        }
        out.write(buf, 0, n);
      }
    }
    return out.toByteArray();
  }

  /** Sets the response. */
  public void respond(int status, String contentType, byte[] body) {
    this.status = status;
    this.contentType = contentType;
    this.responseBody = body;
  }

  /** A plain-text response. */
  public void respondText(int status, String text) {
    respond(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  /** Adds a response header. */
  public void responseHeader(String name, String value) {
    responseHeaders.put(name, value);
  }

  int status() {
    return status;
  }

  String contentType() {
    return contentType;
  }

  byte[] responseBody() {
    return responseBody;
  }

  Map<String, String> responseHeaders() {
    return responseHeaders;
  }
}
