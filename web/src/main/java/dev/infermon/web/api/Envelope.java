package dev.infermon.web.api;

import dev.infermon.web.http.Exchange;
import java.util.List;

/**
 * Writes Prometheus's response envelope: {@code {"status":"success","data":...,"warnings":[...],
 * "infos":[...]}} or {@code {"status":"error","errorType":"...","error":"..."}}; empty warnings and
 * infos are left out, as Go's {@code omitempty} does. Stateless.
 */
final class Envelope {
  static final String JSON = "application/json";

  private Envelope() {}

  static void success(Exchange ex, Json.IoAction data) {
    success(ex, data, List.of(), List.of());
  }

  static void success(Exchange ex, Json.IoAction data, List<String> warnings, List<String> infos) {
    byte[] body =
        new Json()
            .write(
                g -> {
                  g.writeStartObject();
                  g.writeStringField("status", "success");
                  g.writeFieldName("data");
                  data.run(g);
                  annotations(g, warnings, infos);
                  g.writeEndObject();
                })
            .bytes();
    ex.respond(200, JSON, body);
  }

  static void error(Exchange ex, ApiException e) {
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
    ex.respond(e.type().httpStatus(), JSON, body);
  }

  private static void annotations(
      com.fasterxml.jackson.core.JsonGenerator g, List<String> warnings, List<String> infos)
      throws java.io.IOException {
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
