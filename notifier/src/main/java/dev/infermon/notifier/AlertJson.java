package dev.infermon.notifier;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.model.labels.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Encodes alerts as Alertmanager's {@code postableAlerts} JSON. Stateless. */
final class AlertJson {
  private static final JsonFactory FACTORY = new JsonFactory();
  // strfmt.DateTime marshals as RFC 3339 with milliseconds.
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

  private AlertJson() {}

  static byte[] encode(List<Alert> alerts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartArray();
      for (Alert a : alerts) {
        g.writeStartObject();
        writeLabels(g, "annotations", a.annotations());
        if (a.endsAtMs() != 0) {
          g.writeStringField("endsAt", TIME.format(Instant.ofEpochMilli(a.endsAtMs())));
        }
        if (a.startsAtMs() != 0) {
          g.writeStringField("startsAt", TIME.format(Instant.ofEpochMilli(a.startsAtMs())));
        }
        if (!a.generatorUrl().isEmpty()) {
          g.writeStringField("generatorURL", a.generatorUrl());
        }
        writeLabels(g, "labels", a.labels());
        g.writeEndObject();
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void writeLabels(JsonGenerator g, String field, Labels l) throws IOException {
    g.writeObjectFieldStart(field);
    for (int i = 0; i < l.size(); i++) {
      g.writeStringField(l.name(i), l.value(i));
    }
    g.writeEndObject();
  }
}
