package dev.infermon.web.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.llm.catalog.BucketSpec;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.History;
import dev.infermon.llm.catalog.LabelSpec;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * The JSON of {@code /api/v1/llm/catalog/families[/<name>]}: each family of the catalog as the
 * catalog records it (engine, type, unit, labels and buckets by release, its history and the
 * citation), so a panel's reason can link to the facts it rests on. A family whose type changed
 * between releases has one entry per type, in catalog order. Stateless.
 */
final class CatalogJson {
  private CatalogJson() {}

  /** Every family of every engine, in catalog order. */
  static void families(JsonGenerator g, Catalog catalog) throws IOException {
    g.writeStartArray();
    for (EngineCatalog e : catalog.engines()) {
      for (MetricEntry m : e.metrics()) {
        family(g, e, m);
      }
    }
    g.writeEndArray();
  }

  /** The entries of one family (by release), found under any of its engine's spellings. */
  static void family(JsonGenerator g, EngineCatalog e, List<MetricEntry> entries)
      throws IOException {
    g.writeStartArray();
    for (MetricEntry m : entries) {
      family(g, e, m);
    }
    g.writeEndArray();
  }

  private static void family(JsonGenerator g, EngineCatalog e, MetricEntry m) throws IOException {
    g.writeStartObject();
    List<NameVariant> variants = e.variants();
    g.writeStringField("name", variants.isEmpty() ? m.name() : m.familyName(variants.get(0)));
    g.writeStringField("engine", e.engine());
    g.writeStringField("engineTitle", e.title());
    g.writeStringField("type", m.type().name().toLowerCase(Locale.ROOT));
    g.writeStringField("unit", m.unit() == null ? "" : m.unit());
    // the catalog keeps what a user must know instead of the engine's HELP text
    g.writeStringField("help", m.note() == null ? "" : m.note());
    g.writeArrayFieldStart("spellings");
    for (NameVariant v : variants) {
      String name = m.familyName(v);
      g.writeString(name);
    }
    g.writeEndArray();
    g.writeStringField("since", m.since().name());
    history(g, m.history());
    g.writeObjectFieldStart("condition");
    g.writeStringField("kind", m.condition().kind().name().toLowerCase(Locale.ROOT));
    g.writeStringField("flag", m.condition().flag());
    g.writeEndObject();
    g.writeArrayFieldStart("labels");
    for (LabelSpec l : m.labels()) {
      g.writeStartObject();
      g.writeStringField("name", l.name());
      release(g, "since", l.since());
      release(g, "until", l.until());
      g.writeBooleanField("optional", l.optional());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("buckets");
    for (BucketSpec b : m.buckets()) {
      g.writeStartObject();
      release(g, "since", b.since());
      release(g, "until", b.until());
      g.writeStringField("bounds", b.toString());
      g.writeEndObject();
    }
    g.writeEndArray();
    if (m.avoid() != null) {
      g.writeStringField("avoid", m.avoid().why());
    }
    g.writeStringField("cite", m.cite());
    g.writeEndObject();
  }

  private static void history(JsonGenerator g, History h) throws IOException {
    g.writeObjectFieldStart("history");
    optional(g, "renamedFrom", h.renamedFrom());
    optional(g, "replacedBy", h.replacedBy());
    release(g, "deprecated", h.deprecated());
    release(g, "hidden", h.hidden());
    release(g, "removed", h.removed());
    optional(g, "note", h.note());
    g.writeEndObject();
  }

  private static void release(JsonGenerator g, String field, ReleaseLine v) throws IOException {
    if (v != null) {
      g.writeStringField(field, v.name());
    }
  }

  private static void optional(JsonGenerator g, String field, String v) throws IOException {
    if (v != null && !v.isEmpty()) {
      g.writeStringField(field, v);
    }
  }
}
