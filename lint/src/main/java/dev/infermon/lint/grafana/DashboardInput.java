package dev.infermon.lint.grafana;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.LintQuery;
import dev.infermon.lint.Location;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Grafana dashboard (JSON model, or the API's {@code {"dashboard": ...}} wrapper) as lint input:
 * every Prometheus target's {@code expr} of every panel, rows and collapsed rows' nested panels and
 * the old {@code rows[]} schema included, with template variables replaced ({@link
 * TemplateVariables}) and each query located at its line in the file and at its dashboard, panel
 * title and {@code refId}. Targets of other data sources (Loki, ...) are skipped. Immutable.
 *
 * @param title the dashboard's title
 * @param queries the targets' expressions
 * @param problems findings about the file itself (not JSON) or its queries' Grafana variables
 */
public record DashboardInput(String title, List<LintQuery> queries, List<Finding> problems) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public DashboardInput {
    queries = List.copyOf(queries);
    problems = List.copyOf(problems);
  }

  /** Reads dashboard JSON; {@code file} names it in locations. */
  public static DashboardInput read(String file, String text) {
    JsonNode root;
    Map<String, int[]> positions;
    try {
      root = JSON.readTree(text);
      positions = positions(text);
    } catch (IOException e) {
      return new DashboardInput(
          "",
          List.of(),
          List.of(
              Finding.of(
                  CheckId.PARSE_ERROR,
                  Location.at(file, 0, 0),
                  "not a Grafana dashboard: " + e.getMessage().lines().findFirst().orElse(""),
                  "",
                  "")));
    }
    String pointer = "";
    if (root != null && root.has("dashboard") && root.get("dashboard").isObject()) {
      root = root.get("dashboard");
      pointer = "/dashboard";
    }
    if (root == null || !root.isObject()) {
      return notADashboard(file, "the document is not a JSON object");
    }
    if (!root.has("panels") && !root.has("rows")) {
      return notADashboard(
          file,
          "a JSON object without panels or rows (a dashboard's JSON model, or the API's"
              + " {\"dashboard\": ...})");
    }
    String title = root.path("title").asText("");
    List<LintQuery> queries = new ArrayList<>();
    List<Finding> problems = new ArrayList<>();
    Walk w = new Walk(file, title, positions, text.split("\n", -1), queries, problems);
    w.panels(root.path("panels"), pointer + "/panels", "");
    JsonNode rows = root.path("rows");
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = rows.get(i);
      w.panels(
          row.path("panels"), pointer + "/rows/" + i + "/panels", row.path("title").asText(""));
    }
    return new DashboardInput(title, queries, problems);
  }

  private static DashboardInput notADashboard(String file, String why) {
    return new DashboardInput(
        "",
        List.of(),
        List.of(
            Finding.of(
                CheckId.INPUT_ERROR,
                Location.at(file, 1, 1),
                "not a Grafana dashboard: " + why + ".",
                "give a dashboard's JSON, or lint the file as rules by a .yml or .yaml name",
                "")));
  }

  /**
   * How a panel is named in findings: its title, or, untitled, its type and id ({@code timeseries
   * panel #12}), so a finding still leads to it.
   */
  static String panelName(JsonNode p, int index) {
    String title = p.path("title").asText("").strip();
    if (!title.isEmpty()) {
      return title;
    }
    String type = p.path("type").asText("").strip();
    String id = p.hasNonNull("id") ? p.get("id").asText() : "";
    return "untitled "
        + (type.isEmpty() ? "" : type + " ")
        + "panel "
        + (id.isEmpty() ? "at index " + index : "#" + id);
  }

  /** Collects the panels' targets, recursing into rows. Not thread-safe; one per read. */
  private record Walk(
      String file,
      String title,
      Map<String, int[]> positions,
      String[] lines,
      List<LintQuery> queries,
      List<Finding> problems) {
    /**
     * The targets of {@code panels}. In the flat schema an expanded row's panels follow it as
     * siblings, a collapsed row nests them: either way they are named under the row.
     */
    void panels(JsonNode panels, String pointer, String rowTitle) {
      String row = rowTitle;
      for (int i = 0; i < panels.size(); i++) {
        JsonNode p = panels.get(i);
        String at = pointer + "/" + i;
        String panelTitle = panelName(p, i);
        if ("row".equals(p.path("type").asText())) {
          panels(p.path("panels"), at + "/panels", panelTitle);
          row = panelTitle;
          continue;
        }
        String shown = row.isEmpty() ? panelTitle : row + " / " + panelTitle;
        JsonNode targets = p.path("targets");
        for (int t = 0; t < targets.size(); t++) {
          target(targets.get(t), at + "/targets/" + t, shown, p);
        }
        // a library or repeated panel may nest panels of its own
        if (p.has("panels")) {
          panels(p.path("panels"), at + "/panels", shown);
        }
      }
    }

    private void target(JsonNode t, String pointer, String panel, JsonNode p) {
      if (!t.has("expr") || !t.get("expr").isTextual() || t.get("expr").asText().isBlank()) {
        return;
      }
      if (!prometheus(t.path("datasource")) || !prometheus(p.path("datasource"))) {
        return;
      }
      String raw = t.get("expr").asText();
      String refId = t.path("refId").asText("");
      int[] pos = positions.getOrDefault(pointer + "/expr", new int[] {0, 0});
      Location base = Location.inPanel(file, pos[0], pos[1], title, panel, refId);
      int[] cols = pos[0] == 0 ? new int[0] : columns(lines[pos[0] - 1], pos[1]);
      TemplateVariables.Result r = TemplateVariables.substitute(raw);
      queries.add(
          new LintQuery(
              r.text(),
              LintQuery.Kind.PANEL,
              Duration.ZERO,
              offset ->
                  pos[0] == 0 ? base : base.moved(pos[0], column(cols, pos[1], r.original(offset))),
              t.path("legendFormat").asText("")));
      int k = raw.indexOf("[$__interval]");
      if (k >= 0) {
        problems.add(
            Finding.of(
                CheckId.SHORT_RATE_WINDOW,
                pos[0] == 0 ? base : base.moved(pos[0], column(cols, pos[1], k)),
                "a range of $__interval: Grafana sets it to the panel's step, which can be one"
                    + " scrape interval; rate() then has too few samples and the panel has gaps.",
                "use [$__rate_interval]",
                "$__interval"));
      }
    }

    /** Whether a data source is Prometheus, or unspecified (the dashboard's default). */
    private static boolean prometheus(JsonNode ds) {
      if (ds.isMissingNode() || ds.isNull()) {
        return true;
      }
      if (ds.isTextual()) {
        String s = ds.asText().toLowerCase(java.util.Locale.ROOT);
        return !(s.contains("loki") || s.contains("tempo") || s.contains("elastic"));
      }
      String type = ds.path("type").asText("prometheus");
      return type.isEmpty() || type.equals("prometheus") || type.startsWith("$");
    }
  }

  /**
   * The 1-based file column of each character of the JSON string whose opening quote is at {@code
   * quoteColumn} of {@code line}: an escape ({@code \"}, {@code \\u00e9}) is several characters of
   * the file for one of the string, so findings after one stay on their character.
   */
  static int[] columns(String line, int quoteColumn) {
    List<Integer> out = new ArrayList<>();
    int i = quoteColumn; // 0-based index of the first character after the quote
    while (i < line.length() && line.charAt(i) != '"') {
      out.add(i + 1);
      if (line.charAt(i) == '\\' && i + 1 < line.length()) {
        i += line.charAt(i + 1) == 'u' ? 6 : 2;
      } else {
        i++;
      }
    }
    out.add(i + 1);
    int[] cols = new int[out.size()];
    for (int k = 0; k < cols.length; k++) {
      cols[k] = out.get(k);
    }
    return cols;
  }

  /** The file column of offset {@code i} of a string, by {@link #columns}; plain without them. */
  private static int column(int[] cols, int quoteColumn, int i) {
    if (cols.length == 0) {
      return quoteColumn + 1 + i;
    }
    return cols[Math.max(0, Math.min(i, cols.length - 1))];
  }

  /** The line and column of every string value, by JSON pointer. */
  private static Map<String, int[]> positions(String text) throws IOException {
    Map<String, int[]> out = new HashMap<>();
    try (JsonParser p = new JsonFactory().createParser(text)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.VALUE_STRING) {
          JsonLocation l = p.currentTokenLocation();
          out.put(
              p.getParsingContext().pathAsPointer().toString(),
              new int[] {l.getLineNr(), l.getColumnNr()});
        }
      }
    }
    return out;
  }
}
