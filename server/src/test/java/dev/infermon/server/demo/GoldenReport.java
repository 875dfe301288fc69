package dev.infermon.server.demo;

import dev.infermon.lint.Finding;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.Location;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.diagnosis.Diagnosis;
import dev.infermon.llm.diagnosis.DiagnosisRequest;
import dev.infermon.llm.diagnosis.Evidence;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.labels.Labels;
import dev.infermon.rules.AlertSnapshot;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.rules.RuleStatus;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What infermon says about a {@link ReplayedWorld}, as golden lines: one fact per line, each line
 * complete on its own (it names its section and subject), in a stable order, times relative to the
 * replay's start ({@code T0+15m}), numbers to four significant digits, the targets' free ports
 * replaced by their names. Sections: the targets and their inventory, every dashboard panel (the
 * service's list, in display order) with its status, series and reasons, lint of the default pack
 * and of the exported Grafana dashboard against the stored reference, the pack's alerts after the
 * last evaluation, and diagnosis over its default window. One instance per report, used by one
 * thread.
 */
final class GoldenReport {
  /** The dashboard range: the last half hour, as a user opening it at the end would look. */
  static final Duration DASHBOARD_RANGE = Duration.ofMinutes(30);

  /** The Grafana export's name in lint's locations. */
  static final String GRAFANA_FILE = "infermon-dashboard.json";

  /** Series by their labels, a heatmap's {@code le} by value. */
  private static final Comparator<PanelResult.SeriesData> SERIES_ORDER =
      Comparator.comparing((PanelResult.SeriesData s) -> labels(without(s.labels(), "le")))
          .thenComparingDouble(s -> le(s.labels().get("le")));

  private final ReplayedWorld w;
  private final List<String> out = new ArrayList<>();
  private final List<String> queries = new ArrayList<>();

  private GoldenReport(ReplayedWorld w) {
    this.w = w;
  }

  /**
   * Every fact about {@code w}, in order.
   *
   * @param queries receives each compiled panel query, one line each, for reviewers: the queries
   *     are how a fact came about, not a fact, so they are not compared
   */
  static List<String> of(ReplayedWorld w, List<String> queries) {
    GoldenReport r = new GoldenReport(w);
    r.inventory();
    r.panels();
    r.lint();
    r.alerts();
    r.diagnosis();
    queries.addAll(r.queries);
    return List.copyOf(r.out);
  }

  // ---------------------------------------------------------------- inventory

  private void inventory() {
    Inventory inv = w.llm.dashboard().inventory(w.endMs);
    List<TargetInventory> targets = new ArrayList<>(inv.targets());
    targets.sort(Comparator.comparing(t -> t.label("job") + " " + w.name(t.label("instance"))));
    for (TargetInventory t : targets) {
      String who = "target " + w.name(t.label("instance"));
      line(who + " labels " + labels(t.targetLabels()) + " up=" + t.up());
      Detection d = t.detection();
      line(
          who
              + " engine="
              + d.engine()
              + " prefix="
              + quote(d.prefix())
              + " versions="
              + (d.versions() == null ? "unknown" : d.versions().toString())
              + " families="
              + t.families().size());
      for (String f : d.features()) {
        line(who + " feature " + f);
      }
      for (String f : d.unknownFamilies()) {
        line(who + " unknown-family " + f);
      }
    }
  }

  // ---------------------------------------------------------------- panels

  private void panels() {
    long end = w.endMs;
    DashboardRequest req = DashboardRequest.of(Filters.NONE, end - DASHBOARD_RANGE.toMillis(), end);
    for (PanelResult p : w.llm.dashboard().render(req)) {
      String who = "panel " + p.panel().id();
      line(who + " level=" + p.panel().level() + " status=" + p.status());
      for (PanelResult.QueryData q : p.queries()) {
        List<PanelResult.SeriesData> sorted = new ArrayList<>(q.series());
        sorted.sort(SERIES_ORDER);
        List<String> series = new ArrayList<>();
        for (PanelResult.SeriesData s : sorted) {
          series.add(labels(s.labels()) + " last=" + num(s.last()));
        }
        String legend = quote(q.legend());
        if (q.promql() != null) {
          queries.add(who + " query " + legend + ": " + q.promql());
        }
        if (q.promql() == null) {
          line(who + " query " + legend + " not compiled");
        } else if (series.isEmpty()) {
          line(who + " query " + legend + " no series");
        }
        for (String s : series) {
          line(who + " query " + legend + " series " + s);
        }
        for (String warning : q.warnings()) {
          line(who + " query " + legend + " warning " + quote(warning));
        }
      }
      for (EmptyReason r : p.reasons()) {
        line(
            who
                + " reason "
                + r.kind()
                + " engine="
                + (r.engine().isEmpty() ? "-" : r.engine())
                + (r.version() == null ? "" : " version=" + r.version())
                + (r.flag() == null ? "" : " flag=" + quote(r.flag()))
                + " "
                + quote(r.message()));
      }
    }
  }

  // ---------------------------------------------------------------- lint

  private void lint() {
    var checker = w.llm.lint().stored(OptionalLong.empty());
    lint(
        "alert-pack",
        checker.lint(List.of(LintInput.file(ReplayedWorld.PACK_FILE, w.pack)), opts()));
    String grafana = w.llm.exports().grafana(List.of());
    lint("grafana", checker.lint(List.of(LintInput.file(GRAFANA_FILE, grafana)), opts()));
  }

  private static LintOptions opts() {
    return LintOptions.DEFAULT.withScrapeInterval(ReplayedWorld.STEP);
  }

  private void lint(String what, LintResult r) {
    line(
        "lint "
            + what
            + " findings="
            + r.findings().size()
            + " queries="
            + r.queries()
            + " reference="
            + quote(r.reference()));
    for (Finding f : r.findings()) {
      Location l = f.location();
      String where = l.position() + (l.context().isEmpty() ? "" : " " + l.context());
      line(
          "lint "
              + what
              + " "
              + f.check().id()
              + " "
              + f.severity().label()
              + " "
              + quote(f.subject())
              + " at "
              + where
              + " "
              + quote(f.message())
              + (f.fix().isEmpty() ? "" : " fix=" + quote(f.fix())));
    }
  }

  // ---------------------------------------------------------------- alerts

  private void alerts() {
    for (RuleGroupStatus g : w.rules()) {
      for (RuleStatus r : g.rules()) {
        if (!r.isAlerting()) {
          continue;
        }
        String who = "alert " + r.name();
        line(
            who
                + " state="
                + r.state()
                + " health="
                + r.health()
                + (r.lastError().isEmpty() ? "" : " error=" + quote(r.lastError())));
        List<String> alerts = new ArrayList<>();
        for (AlertSnapshot a : r.alerts()) {
          alerts.add(
              a.state().name().toLowerCase(java.util.Locale.ROOT)
                  + " "
                  + labels(a.labels())
                  + " active="
                  + rel(a.activeAt())
                  + (a.firedAt() == 0 ? "" : " fired=" + rel(a.firedAt()))
                  + " value="
                  + num(a.value()));
        }
        alerts.sort(null);
        for (String a : alerts) {
          line(who + " " + a);
        }
      }
    }
  }

  // ---------------------------------------------------------------- diagnosis

  private void diagnosis() {
    Diagnosis d =
        w.llm
            .diagnosis()
            .diagnose(
                new DiagnosisRequest(
                    OptionalLong.empty(),
                    OptionalLong.of(w.endMs),
                    OptionalLong.empty(),
                    OptionalLong.empty()));
    line("diagnosis window " + rel(d.startMs()) + ".." + rel(d.endMs()));
    for (String pod : d.pods()) {
      line("diagnosis pod " + pod);
    }
    for (String u : d.unexamined()) {
      line("diagnosis not examined " + u);
    }
    if (d.findings().isEmpty()) {
      line(
          d.unexamined().isEmpty()
              ? "diagnosis no findings"
              : "diagnosis no findings in what was examined");
    }
    for (var f : d.findings()) {
      String who =
          "diagnosis "
              + f.state().id()
              + " "
              + (f.pod().isEmpty() ? "model " + quote(f.model()) : f.namespace() + "/" + f.pod());
      line(who + " " + quote(f.summary()));
      for (Evidence e : f.evidence()) {
        line(
            who
                + " evidence "
                + quote(e.signal())
                + " "
                + e.series()
                + " = "
                + num(e.value())
                + " at "
                + rel(e.timeMs())
                + " "
                + quote(e.note()));
      }
    }
  }

  // ---------------------------------------------------------------- formatting

  private void line(String s) {
    out.add(w.normalize(s));
  }

  private static String labels(Map<String, String> labels) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append(e.getKey()).append('=').append(quote(e.getValue()));
    }
    return sb.append('}').toString();
  }

  private static Map<String, String> without(Map<String, String> labels, String name) {
    Map<String, String> m = new TreeMap<>(labels);
    m.remove(name);
    return m;
  }

  private static double le(String le) {
    if (le == null) {
      return 0;
    }
    try {
      return Double.parseDouble(le.replace("+Inf", "Infinity"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String labels(Labels l) {
    Map<String, String> m = new TreeMap<>();
    l.forEach(m::put);
    return labels(m);
  }

  /** A string in double quotes, with backslashes, quotes and line breaks escaped. */
  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** Four significant digits; integers as integers. */
  static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.toString(v);
    }
    if (v == 0) {
      return "0";
    }
    return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }

  /** {@code T0+12m30s}: a time relative to the replay's start. */
  private String rel(long ms) {
    long d = ms - w.startMs;
    String sign = d < 0 ? "-" : "+";
    d = Math.abs(d);
    long m = d / 60_000;
    long s = (d % 60_000) / 1000;
    long rest = d % 1000;
    return "T0"
        + sign
        + m
        + "m"
        + (s == 0 && rest == 0
            ? ""
            : s + (rest == 0 ? "" : "." + String.format("%03d", rest)) + "s");
  }
}
