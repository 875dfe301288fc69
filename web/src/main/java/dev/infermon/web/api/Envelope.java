package dev.infermon.web.api;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.web.http.Exchange;
import java.io.IOException;
import java.util.List;

/**
 * The one response envelope of the web module's JSON APIs, Prometheus's, so one client reads the
 * Prometheus HTTP API and the LLM API alike: {@code
 * {"status":"success","data":...,"warnings":[...], "infos":[...]}} or {@code
 * {"status":"error","errorType":"...","error":"..."}}; empty warnings and infos are left out, as
 * Go's {@code omitempty} does. Errors come here through {@link ApiErrors}. Stateless.
 */
public final class Envelope {
  public static final String JSON = "application/json";

  private Envelope() {}

  /** A piece of JSON writing: the {@code data} of a success. */
  @FunctionalInterface
  public interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /** 200 with {@code data}. */
  public static void success(Exchange ex, Body data) {
    success(ex, data, List.of(), List.of());
  }

  /** 200 with {@code data} and the query's annotations. */
  public static void success(Exchange ex, Body data, List<String> warnings, List<String> infos) {
    ex.respond(200, JSON, success(data, warnings, infos));
  }

  /** The success envelope of {@code data}, as bytes. */
  public static byte[] success(Body data) {
    return success(data, List.of(), List.of());
  }

  private static byte[] success(Body data, List<String> warnings, List<String> infos) {
    return new Json()
        .write(
            g -> {
              g.writeStartObject();
              g.writeStringField("status", "success");
              g.writeFieldName("data");
              data.write(g);
              annotations(g, warnings, infos);
              g.writeEndObject();
            })
        .bytes();
  }

  /** The error envelope of {@code e}, with the HTTP status of its type. */
  public static void error(Exchange ex, ApiException e) {
    error(ex, e.type().httpStatus(), e);
  }

  /** The error envelope of {@code e} with another status (413 for a body over the limit). */
  static void error(Exchange ex, int status, ApiException e) {
    byte[] body =
        new Json()
            .write(
                g -> {
                  g.writeStartObject();
                  g.writeStringField("status", "error");
                  g.writeStringField("errorType", e.type().apiName());
                  g.writeStringField("error", e.getMessage());
                  g.writeEndObject();
                })
            .bytes();
    ex.respond(status, JSON, body);
  }

  private static void annotations(JsonGenerator g, List<String> warnings, List<String> infos)
      throws IOException {
    if (!warnings.isEmpty()) {
      g.writeFieldName("warnings");
      Json.strings(g, warnings);
    }
    if (!infos.isEmpty()) {
      g.writeFieldName("infos");
      Json.strings(g, infos);
    }
  }
}
