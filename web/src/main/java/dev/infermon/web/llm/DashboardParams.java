package dev.infermon.web.llm;

import dev.infermon.llm.dashboard.DashboardLayout;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.LevelTab;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.Params;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The dashboard endpoints' query parameters, checked one by one with a {@code bad_data} message
 * naming the parameter: {@code level}, {@code panels} / {@code id}, the filters, {@code quantile},
 * {@code start}, {@code end}, {@code step}, {@code window}, {@code top} and {@code summary}.
 * Immutable.
 *
 * @param request what to render (panel ids resolved from {@code panels} and {@code level})
 * @param level the level asked for ({@code all} when none)
 * @param summary whether each series is written as its last value and a sparkline of {@link
 *     dev.infermon.llm.dashboard.PanelResult.SeriesData#SPARKLINE_POINTS} points instead of every
 *     step (the pod tables)
 */
record DashboardParams(DashboardRequest request, String level, boolean summary) {
  /** The levels {@code level} takes: the layout's (the UI's tabs), {@code all} first. */
  static final List<String> LEVELS = levels();

  /** Other spellings accepted for a level. */
  private static final Map<String, String> LEVEL_ALIASES = Map.of("chain", "causal", "", "all");

  /** URL parameter → filter label; both the short and the label name are accepted. */
  static final Map<String, String> FILTER_PARAMS = filterParams();

  /** The quantiles a dashboard request accepts (its histograms' interpolation stays meaningful). */
  static final double MIN_QUANTILE = 0.5;

  static final double MAX_QUANTILE = 0.99;

  /** Prometheus's limit on points per series, as {@code /api/v1/query_range} applies it. */
  static final long MAX_POINTS = 11_000;

  static final long DEFAULT_RANGE_MS = 3_600_000;

  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?");

  private static Map<String, String> filterParams() {
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : Filters.LABELS.entrySet()) {
      m.put(e.getValue(), e.getKey());
      m.put(e.getKey(), e.getKey());
    }
    return java.util.Collections.unmodifiableMap(m);
  }

  /** The raw parameters, one list of values per name, as the request carried them. */
  interface Source {
    List<String> values(String name);

    default String first(String name) {
      List<String> v = values(name);
      return v.isEmpty() ? "" : v.get(0);
    }
  }

  /**
   * Parses and checks every parameter.
   *
   * @param defaultQuantile used when {@code quantile} is absent
   * @throws ApiException {@code bad_data} naming the first bad parameter
   */
  static DashboardParams parse(Source p, long nowMs, double defaultQuantile) {
    String level = level(p.first("level"));
    List<String> ids = panelIds(p, level);
    Filters filters = filters(p);
    double quantile = quantile(p.first("quantile"), defaultQuantile);
    long end = p.first("end").isEmpty() ? nowMs : time("end", p.first("end"));
    long start =
        p.first("start").isEmpty() ? end - DEFAULT_RANGE_MS : time("start", p.first("start"));
    if (end < start) {
      throw ApiException.invalidParam("end", "end timestamp must not be before start time");
    }
    long step;
    if (p.first("step").isEmpty()) {
      step = DashboardRequest.of(Filters.NONE, start, end).stepMs();
    } else {
      try {
        step = Params.duration(p.first("step"));
      } catch (IllegalArgumentException e) {
        throw ApiException.invalidParam("step", e.getMessage());
      }
      if (step <= 0) {
        throw ApiException.invalidParam(
            "step",
            "zero or negative query resolution step widths are not accepted. Try a positive"
                + " integer");
      }
    }
    if ((end - start) / step > MAX_POINTS) {
      throw ApiException.invalidParam(
          "step",
          "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the"
              + " query resolution (?step=XX)");
    }
    String window = p.first("window").isEmpty() ? "5m" : p.first("window");
    if (!window.matches("[1-9][0-9]*[smhd]")) {
      throw ApiException.invalidParam(
          "window", "must be a duration like 5m (s, m, h or d), got \"" + window + "\"");
    }
    return new DashboardParams(
        new DashboardRequest(filters, quantile, start, end, step, window, ids, top(p.first("top"))),
        level,
        bool("summary", p.first("summary")));
  }

  /** {@code top}: a positive number of series; absent (or {@code all}) for every series. */
  static OptionalInt top(String raw) {
    if (raw.isEmpty() || raw.equals("all")) {
      return OptionalInt.empty();
    }
    if (!raw.matches("[0-9]{1,9}") || Integer.parseInt(raw) == 0) {
      throw ApiException.invalidParam(
          "top", "must be a positive number of series (or all), got \"" + raw + "\"");
    }
    return OptionalInt.of(Integer.parseInt(raw));
  }

  /** A flag: {@code true} or {@code 1}, {@code false} or {@code 0}; absent is false. */
  private static boolean bool(String name, String raw) {
    switch (raw) {
      case "true":
      case "1":
        return true;
      case "":
      case "false":
      case "0":
        return false;
      default:
        throw ApiException.invalidParam(name, "must be true or false, got \"" + raw + "\"");
    }
  }

  private static String level(String raw) {
    String l = raw.toLowerCase(Locale.ROOT);
    l = LEVEL_ALIASES.getOrDefault(l, l);
    if (!LEVELS.contains(l)) {
      throw ApiException.invalidParam(
          "level", "unknown level \"" + raw + "\" (one of " + String.join(", ", LEVELS) + ")");
    }
    return l;
  }

  /** The level a panel is shown in: its section's, from the layout. */
  static String levelOf(Panel p) {
    return Dashboards.layout().levelOf(p);
  }

  private static List<String> levels() {
    List<String> out = new ArrayList<>(List.of(DashboardLayout.ALL));
    for (LevelTab l : Dashboards.layout().levels()) {
      if (!l.id().equals(DashboardLayout.ALL)) {
        out.add(l.id());
      }
    }
    return List.copyOf(out);
  }

  /**
   * The panel ids: {@code panels} (repeated or comma-separated) and {@code id}, else every panel;
   * then only those of {@code level}. An unknown id is an error; an empty selection is not.
   */
  private static List<String> panelIds(Source p, String level) {
    Set<String> asked = new LinkedHashSet<>();
    for (String name : List.of("panels", "id")) {
      for (String v : p.values(name)) {
        for (String id : v.split(",")) {
          if (!id.isBlank()) {
            asked.add(id.trim());
          }
        }
      }
    }
    List<Panel> chosen = new ArrayList<>();
    if (asked.isEmpty()) {
      chosen.addAll(Dashboards.standard());
    } else {
      for (String id : asked) {
        try {
          chosen.add(Dashboards.panel(id));
        } catch (IllegalArgumentException e) {
          throw ApiException.invalidParam("panels", e.getMessage());
        }
      }
    }
    List<String> out = new ArrayList<>();
    for (Panel panel : chosen) {
      if (level.equals(DashboardLayout.ALL) || levelOf(panel).equals(level)) {
        out.add(panel.id());
      }
    }
    return out;
  }

  private static Filters filters(Source p) {
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : FILTER_PARAMS.entrySet()) {
      String v = p.first(e.getKey());
      if (v.isEmpty()) {
        continue;
      }
      String before = values.putIfAbsent(e.getValue(), v);
      if (before != null && !before.equals(v)) {
        throw ApiException.invalidParam(
            e.getKey(),
            "conflicts with another spelling of the same filter (\""
                + before
                + "\" vs \""
                + v
                + "\")");
      }
    }
    return Filters.of(values);
  }

  private static double quantile(String raw, double dflt) {
    if (raw.isEmpty()) {
      return dflt;
    }
    // decimals only: Java would also take "NaN", "0x1p-1" and "0.9d"
    if (!DECIMAL.matcher(raw).matches()) {
      throw ApiException.invalidParam("quantile", "cannot parse \"" + raw + "\" to a number");
    }
    double q = Double.parseDouble(raw);
    if (!(q >= MIN_QUANTILE && q <= MAX_QUANTILE)) {
      throw ApiException.invalidParam(
          "quantile", "must be between " + MIN_QUANTILE + " and " + MAX_QUANTILE + ", got " + raw);
    }
    return q;
  }

  static long time(String name, String raw) {
    try {
      return Params.time(raw);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(name, e.getMessage());
    }
  }
}
