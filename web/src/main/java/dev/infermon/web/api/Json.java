package dev.infermon.web.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import dev.infermon.model.labels.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * A JSON document under construction: Jackson's streaming generator with the few Prometheus
 * conventions on top (label sets as objects, timestamps as seconds, values as Go-formatted
 * strings). One per response; not thread-safe. Output is UTF-8. Doubles written as JSON numbers
 * take their shortest round-trip form (Schubfach), as Go writes them; the LLM API writes every
 * point of a dashboard that way.
 */
final class Json {
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
  private final JsonGenerator g;

  Json() {
    try {
      g = FACTORY.createGenerator(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes through {@code body}; I/O errors of the in-memory buffer cannot happen. */
  Json write(Envelope.Body body) {
    try {
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  byte[] bytes() {
    try {
      g.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static void labels(JsonGenerator g, Labels labels) throws IOException {
    g.writeStartObject();
    for (int i = 0; i < labels.size(); i++) {
      g.writeStringField(labels.name(i), labels.value(i));
    }
    g.writeEndObject();
  }

  /** {@code [ts, "value"]} of a vector or matrix, the timestamp as a raw number. */
  static void point(JsonGenerator g, long timestampMs, double value) throws IOException {
    g.writeStartArray();
    g.writeNumber(JsonNumbers.timestamp(timestampMs));
    g.writeString(JsonNumbers.point(value));
    g.writeEndArray();
  }

  static void strings(JsonGenerator g, List<String> values) throws IOException {
    g.writeStartArray();
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  static void stringMap(JsonGenerator g, Map<String, String> map) throws IOException {
    g.writeStartObject();
    for (Map.Entry<String, String> e : map.entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }
}
