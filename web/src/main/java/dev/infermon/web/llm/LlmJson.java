package dev.infermon.web.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.dashboard.DashboardLayout;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.LevelTab;
import dev.infermon.llm.dashboard.LoraAdapter;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Section;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.Lookalike;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.text.GoFloat;
import dev.infermon.web.api.JsonNumbers;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The JSON of {@code /api/v1/llm/*}: the {@code data} inside the web module's one envelope ({@code
 * Envelope}, Prometheus's {@code {"status":"success","data":...}} or {@code
 * {"status":"error","errorType":...,"error":...}}), so one client handles both APIs. Conventions as
 * the Prometheus API where they fit: label sets are objects, {@code "NaN"} and {@code "+Inf"}
 * values are strings; series are compact (start and step in milliseconds on the UI's grid, then one
 * value per step, finite ones as numbers, null for a gap: a timestamp per point made 40 % of a full
 * dashboard's bytes), and enum values are lower case except reason kinds and statuses, which are
 * the Java names the docs use ({@code NOT_EXPOSED}, {@code EMPTY}). Stateless.
 */
final class LlmJson {
  private LlmJson() {}

  /** The dashboard: the window and quantile used, the quantiles offered, and the panels. */
  static void dashboard(
      JsonGenerator g, DashboardParams p, List<Double> quantiles, List<PanelResult> panels)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("level", p.level());
    g.writeNumberField("quantile", p.request().quantile());
    g.writeArrayFieldStart("quantiles");
    for (double q : quantiles) {
      g.writeNumber(q);
    }
    g.writeEndArray();
    g.writeFieldName("start");
    g.writeNumber(JsonNumbers.timestamp(p.request().startMs()));
    g.writeFieldName("end");
    g.writeNumber(JsonNumbers.timestamp(p.request().endMs()));
    g.writeFieldName("step");
    g.writeNumber(JsonNumbers.timestamp(p.request().stepMs()));
    g.writeStringField("window", p.request().window());
    if (p.request().top().isPresent()) {
      g.writeNumberField("top", p.request().top().getAsInt());
    }
    g.writeBooleanField("summary", p.summary());
    g.writeArrayFieldStart("panels");
    for (PanelResult r : panels) {
      panelResult(g, r, p.request().stepMs(), p.summary());
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** One panel: its spec, status, reasons and queries with their series. */
  static void panelResult(JsonGenerator g, PanelResult r, long stepMs) throws IOException {
    panelResult(g, r, stepMs, false);
  }

  /**
   * One panel; with {@code summary} each series as its last value and a sparkline ({@link
   * #summary}) instead of every step.
   */
  static void panelResult(JsonGenerator g, PanelResult r, long stepMs, boolean summary)
      throws IOException {
    g.writeStartObject();
    g.writeFieldName("panel");
    panel(g, r.panel());
    g.writeStringField("status", r.status().name());
    g.writeArrayFieldStart("reasons");
    for (EmptyReason e : r.reasons()) {
      reason(g, e);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("queries");
    for (PanelResult.QueryData q : r.queries()) {
      g.writeStartObject();
      g.writeStringField("legend", q.legend());
      g.writeStringField("promql", q.promql());
      strings(g, "warnings", q.warnings());
      g.writeNumberField("total", q.total());
      g.writeArrayFieldStart("series");
      for (PanelResult.SeriesData s : q.series()) {
        if (summary) {
          summary(g, s, r.panel().rank());
        } else {
          series(g, s, stepMs);
        }
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * {@code {"quantiles":[...],"levels":[...],"sections":[...],"panels":[spec...]}} for the panels
   * {@code ids}: the levels ({@code id}, {@code title}) in tab order and the sections ({@code id},
   * {@code title}, {@code level}, {@code wide}) in display order are the whole layout's, so a
   * client builds its tabs and headings from them.
   */
  static void specs(JsonGenerator g, List<String> ids, List<Double> quantiles) throws IOException {
    DashboardLayout layout = Dashboards.layout();
    g.writeStartObject();
    g.writeArrayFieldStart("quantiles");
    for (double q : quantiles) {
      g.writeNumber(q);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("levels");
    for (LevelTab l : layout.levels()) {
      g.writeStartObject();
      g.writeStringField("id", l.id());
      g.writeStringField("title", l.title());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("sections");
    for (Section s : layout.sections()) {
      g.writeStartObject();
      g.writeStringField("id", s.id());
      g.writeStringField("title", s.title());
      g.writeStringField("level", s.level());
      g.writeBooleanField("wide", s.wide());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("panels");
    for (String id : ids) {
      panel(g, Dashboards.panel(id));
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void panel(JsonGenerator g, Panel p) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", p.id());
    g.writeStringField("section", p.section());
    g.writeStringField("title", p.title());
    g.writeStringField("level", DashboardParams.levelOf(p));
    strings(g, "groupBy", p.level().groupBy());
    g.writeStringField("unit", p.unit());
    g.writeStringField("kind", p.kind().name().toLowerCase(Locale.ROOT));
    if (p.ranked()) {
      g.writeStringField("rank", p.rank().name().toLowerCase(Locale.ROOT));
    }
    g.writeStringField("description", p.description());
    g.writeArrayFieldStart("legends");
    for (var q : p.queries()) {
      g.writeString(q.legend());
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void reason(JsonGenerator g, EmptyReason e) throws IOException {
    g.writeStartObject();
    g.writeStringField("kind", e.kind().name());
    g.writeStringField("engine", e.engine());
    g.writeStringField("message", e.message());
    if (e.version() != null) {
      g.writeStringField("version", e.version());
    }
    if (e.flag() != null) {
      g.writeStringField("flag", e.flag());
    }
    g.writeEndObject();
  }

  /**
   * One series, compact: {@code start} (ms, its first point), {@code step} (ms) and {@code values},
   * the point at {@code start + i*step} or null where there is none. Finite values are JSON numbers
   * in their shortest round-trip form; NaN and the infinities are strings as in the Prometheus API.
   * A series whose points are not on the step grid (never from a range query) keeps {@code
   * timestamps}.
   */
  private static void series(JsonGenerator g, PanelResult.SeriesData s, long stepMs)
      throws IOException {
    g.writeStartObject();
    labels(g, s);
    long[] t = s.timestamps();
    double[] v = s.values();
    if (t.length > 0 && onGrid(t, stepMs)) {
      g.writeNumberField("start", t[0]);
      g.writeNumberField("step", stepMs);
      g.writeArrayFieldStart("values");
      long next = t[0];
      for (int i = 0; i < t.length; i++) {
        for (; next < t[i]; next += stepMs) {
          g.writeNull();
        }
        value(g, v[i]);
        next = t[i] + stepMs;
      }
    } else {
      g.writeArrayFieldStart("timestamps");
      for (long x : t) {
        g.writeNumber(x);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("values");
      for (double x : v) {
        value(g, x);
      }
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * One series for a table: {@code labels}, {@code last} (its last value that is a number, null
   * when none) and {@code spark}, the series in at most {@link
   * PanelResult.SeriesData#SPARKLINE_POINTS} runs of steps, each the run's largest value (smallest
   * for a {@code rank: low} panel), null for a run without one.
   */
  private static void summary(JsonGenerator g, PanelResult.SeriesData s, Panel.Rank rank)
      throws IOException {
    g.writeStartObject();
    labels(g, s);
    g.writeFieldName("last");
    nullable(g, s.last());
    g.writeArrayFieldStart("spark");
    for (double x : s.sparkline(PanelResult.SeriesData.SPARKLINE_POINTS, rank)) {
      // a thumbnail a few dozen pixels high: three digits draw it exactly and take a third of
      // the bytes of all seventeen (most of a 1,000-pod table's answer); `last` stays exact
      nullable(g, Double.isFinite(x) ? threeDigits(x) : x);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** {@code x} rounded to three significant digits (half up), as the closest double. */
  static double threeDigits(double x) {
    if (x == 0 || x == Math.rint(x) && Math.abs(x) < 1000) {
      return x;
    }
    // a power of ten is an exact double up to 1e22, so one rounded product or quotient gives the
    // closest double; BigDecimal, per point of every table's sparklines, cost more than the rest
    int e = (int) Math.floor(Math.log10(Math.abs(x))) - 2;
    double p = Math.abs(e) > 22 ? Double.NaN : POWERS_OF_TEN[Math.abs(e)];
    double scaled = e < 0 ? Math.abs(x) * p : Math.abs(x) / p;
    double frac = scaled - Math.floor(scaled);
    if (Double.isNaN(p) || Math.abs(frac - 0.5) < 1e-6) {
      // near a tie the scaled value's own rounding may pick the side: the exact decimal decides
      return new BigDecimal(x).round(THREE_DIGITS).doubleValue();
    }
    double digits = Math.signum(x) * Math.floor(scaled + 0.5);
    return e < 0 ? digits / p : digits * p;
  }

  private static final MathContext THREE_DIGITS = new MathContext(3, RoundingMode.HALF_UP);
  private static final double[] POWERS_OF_TEN = powersOfTen();

  private static double[] powersOfTen() {
    double[] p = new double[23];
    p[0] = 1;
    for (int i = 1; i < p.length; i++) {
      p[i] = p[i - 1] * 10;
    }
    return p;
  }

  private static void nullable(JsonGenerator g, double x) throws IOException {
    if (Double.isNaN(x)) {
      g.writeNull();
    } else {
      value(g, x);
    }
  }

  private static void labels(JsonGenerator g, PanelResult.SeriesData s) throws IOException {
    g.writeObjectFieldStart("labels");
    for (Map.Entry<String, String> l : new TreeMap<>(s.labels()).entrySet()) {
      g.writeStringField(l.getKey(), l.getValue());
    }
    g.writeEndObject();
  }

  private static boolean onGrid(long[] t, long stepMs) {
    if (stepMs <= 0) {
      return false;
    }
    for (int i = 1; i < t.length; i++) {
      if (t[i] <= t[i - 1] || (t[i] - t[0]) % stepMs != 0) {
        return false;
      }
    }
    return true;
  }

  private static void value(JsonGenerator g, double x) throws IOException {
    if (Double.isFinite(x)) {
      if (x == Math.rint(x) && Math.abs(x) < 1e15 && (x != 0 || 1 / x > 0)) {
        g.writeNumber((long) x); // counts and gauges: "14", not "14.0" (as Go writes them)
      } else {
        // a JSON number that parses back to exactly x (shortest digits, Schubfach): Go's format
        // through GoFloat searched with BigDecimal and was most of a warm dashboard's CPU time
        g.writeNumber(x);
      }
    } else {
      g.writeString(JsonNumbers.point(x));
    }
  }

  /** The inventory: engines present and every target with what it exposes. */
  static void inventory(JsonGenerator g, long timeMs, Inventory inv) throws IOException {
    g.writeStartObject();
    g.writeFieldName("time");
    g.writeNumber(JsonNumbers.timestamp(timeMs));
    strings(g, "engines", List.copyOf(inv.engines()));
    g.writeArrayFieldStart("targets");
    for (TargetInventory t : inv.targets()) {
      g.writeStartObject();
      g.writeObjectFieldStart("labels");
      for (Map.Entry<String, String> l : t.targetLabels().entrySet()) {
        g.writeStringField(l.getKey(), l.getValue());
      }
      g.writeEndObject();
      g.writeBooleanField("up", t.up());
      g.writeStringField("engine", t.engine());
      g.writeStringField("prefix", t.detection().prefix());
      if (t.detection().spelling() == null) {
        g.writeNullField("spelling");
      } else {
        g.writeStringField("spelling", t.detection().spelling().key());
      }
      if (t.detection().lookalike() != null) {
        Lookalike l = t.detection().lookalike();
        g.writeObjectFieldStart("lookalike");
        g.writeStringField("engine", l.engine());
        g.writeStringField("seenPrefix", l.seenPrefix());
        g.writeStringField("use", l.use().key());
        strings(g, "examples", l.examples());
        g.writeStringField("message", l.message());
        g.writeEndObject();
      }
      ReleaseRange r = t.detection().versions();
      if (r == null) {
        g.writeNullField("versions");
      } else {
        g.writeObjectFieldStart("versions");
        g.writeStringField("first", r.first().name());
        g.writeStringField("last", r.last().name());
        g.writeEndObject();
      }
      strings(g, "features", t.detection().features());
      strings(g, "unknownFamilies", t.detection().unknownFamilies());
      g.writeArrayFieldStart("families");
      for (FamilyInfo f : t.families().values()) {
        g.writeStartObject();
        g.writeStringField("name", f.name());
        g.writeStringField("type", f.type().name().toLowerCase(Locale.ROOT));
        strings(g, "labels", List.copyOf(new java.util.TreeSet<>(f.labelNames())));
        g.writeArrayFieldStart("buckets");
        for (double b : f.bounds()) {
          g.writeNumber(b);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * Every sample name the catalog knows, in each engine's default spelling, once: {@code [{name,
   * engine, type, unit}]}, for completion in the query editor.
   */
  static void catalogNames(JsonGenerator g, Catalog catalog) throws IOException {
    Set<String> seen = new LinkedHashSet<>();
    g.writeStartArray();
    for (EngineCatalog e : catalog.engines()) {
      if (e.variants().isEmpty()) {
        continue;
      }
      for (MetricEntry m : e.metrics()) {
        for (String name : m.sampleNames(e.variants().get(0))) {
          if (!seen.add(name)) {
            continue;
          }
          g.writeStartObject();
          g.writeStringField("name", name);
          g.writeStringField("engine", e.engine());
          g.writeStringField("type", m.type().name().toLowerCase(Locale.ROOT));
          g.writeStringField("unit", m.unit() == null ? "" : m.unit());
          g.writeEndObject();
        }
      }
    }
    g.writeEndArray();
  }

  /** {@code [{model, adapter}]}. */
  static void adapters(JsonGenerator g, List<LoraAdapter> adapters) throws IOException {
    g.writeStartArray();
    for (LoraAdapter a : adapters) {
      g.writeStartObject();
      g.writeStringField("model", a.model());
      g.writeStringField("adapter", a.adapter());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void strings(JsonGenerator g, String field, List<String> values)
      throws IOException {
    g.writeArrayFieldStart(field);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  /**
   * A tree of maps, lists, strings, numbers and booleans (a diagnosis, a lint report); NaN and ±Inf
   * as strings.
   */
  static void tree(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        tree(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof List) {
      g.writeStartArray();
      for (Object o : (List<?>) v) {
        tree(g, o);
      }
      g.writeEndArray();
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isFinite(d)) {
        g.writeNumber(d);
      } else {
        g.writeString(GoFloat.formatF(d));
      }
    } else if (v instanceof Number) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof Boolean) {
      g.writeBoolean((Boolean) v);
    } else {
      g.writeString(String.valueOf(v));
    }
  }
}
