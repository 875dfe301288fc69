package dev.infermon.web.remotewrite;

import java.util.Locale;

/**
 * The request headers the remote-write specifications require of a sender, checked before the body
 * is read: {@code Content-Type: application/x-protobuf} (optionally {@code
 * ;proto=prometheus.WriteRequest}) and {@code Content-Encoding: snappy}. Anything else is answered
 * 415 Unsupported Media Type, as the 2.0 specification tells receivers to answer a message they do
 * not support; a remote-write 2.0 sender then falls back to 1.0.
 *
 * <p>Both headers are required, where Prometheus's receiver assumes 1.0 and snappy when they are
 * missing: a web page can send a POST with no Content-Type, or a form's, to any address without a
 * CORS preflight, but not one with {@code application/x-protobuf} or a {@code Content-Encoding}. So
 * no request a page sends cross-site on its own is stored. Every sender that follows the
 * specification (Prometheus, the agent, vmagent, infermon's own queue) sends both. Stateless.
 */
final class WriteRequestHeaders {
  static final String MEDIA_TYPE = "application/x-protobuf";
  static final String V1_MESSAGE = "prometheus.WriteRequest";
  static final String V2_MESSAGE = "io.prometheus.write.v2.Request";
  static final String SNAPPY = "snappy";

  private WriteRequestHeaders() {}

  /** Why a request with these headers is refused with 415, or null when it is accepted. */
  static String problem(String contentType, String contentEncoding) {
    String typeProblem = contentTypeProblem(contentType);
    if (typeProblem != null) {
      return typeProblem;
    }
    if (contentEncoding == null || contentEncoding.isBlank()) {
      return "Content-Encoding: " + SNAPPY + " is required (remote write 1.0)";
    }
    if (!contentEncoding.trim().equalsIgnoreCase(SNAPPY)) {
      return contentEncoding.trim()
          + " encoding (compression) is not accepted by this server; only "
          + SNAPPY
          + " is acceptable";
    }
    return null;
  }

  private static String contentTypeProblem(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return "Content-Type: " + MEDIA_TYPE + " is required (remote write 1.0)";
    }
    String[] parts = contentType.trim().split(";");
    if (!parts[0].trim().toLowerCase(Locale.ROOT).equals(MEDIA_TYPE)) {
      return "expected "
          + MEDIA_TYPE
          + " as the first (media) part, got "
          + contentType.trim()
          + " content-type";
    }
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      int eq = p.indexOf('=');
      if (eq <= 0 || p.indexOf('=', eq + 1) >= 0) {
        return "expected parameters to be key-values (RFC 9110), got "
            + p
            + " in "
            + contentType.trim()
            + " content-type";
      }
      if (!p.substring(0, eq).trim().equalsIgnoreCase("proto")) {
        continue;
      }
      String message = p.substring(eq + 1).trim();
      if (message.equals(V1_MESSAGE)) {
        return null;
      }
      if (message.equals(V2_MESSAGE)) {
        return V2_MESSAGE
            + " protobuf message is not accepted by this server; only accepts "
            + V1_MESSAGE;
      }
      return "got "
          + contentType.trim()
          + " content type; unknown remote write protobuf message "
          + message
          + ", supported: "
          + V1_MESSAGE;
    }
    return null;
  }
}
