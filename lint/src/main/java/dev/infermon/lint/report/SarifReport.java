package dev.infermon.lint.report;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.Location;
import dev.infermon.lint.run.LintResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lint results as SARIF 2.1.0 (OASIS), for code-scanning UIs: one run, the tool's rules (every
 * {@link CheckId}) with their default levels, one result per finding with its physical location
 * (file, line, column) and, for dashboards and rules, a logical location naming the panel or rule.
 * The fix travels in the message and in {@code properties.fix}: SARIF's own {@code fixes} need
 * byte-exact replacements, which lint does not compute. Stateless.
 */
public final class SarifReport {
  public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
  public static final String VERSION = "2.1.0";
  static final String INFO_URI = "https://github.com/infermon/infermon/blob/main/docs/lint.md";

  private SarifReport() {}

  /** The SARIF log as a JSON-ready tree. */
  public static Map<String, Object> tree(LintResult r, String toolVersion) {
    List<Object> rules = new ArrayList<>();
    for (CheckId c : CheckId.values()) {
      Map<String, Object> rule = new LinkedHashMap<>();
      rule.put("id", c.id());
      rule.put("name", camel(c.id()));
      rule.put("shortDescription", Map.of("text", c.description()));
      rule.put("helpUri", INFO_URI + "#" + c.id());
      rule.put("defaultConfiguration", Map.of("level", c.severity().sarifLevel()));
      rules.add(rule);
    }
    Map<String, Object> driver = new LinkedHashMap<>();
    driver.put("name", "infermon lint");
    driver.put("informationUri", INFO_URI);
    driver.put("version", toolVersion);
    driver.put("rules", rules);
    List<Object> results = new ArrayList<>();
    for (Finding f : r.findings()) {
      results.add(result(f));
    }
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("tool", Map.of("driver", driver));
    run.put("results", results);
    Map<String, Object> log = new LinkedHashMap<>();
    log.put("$schema", SCHEMA);
    log.put("version", VERSION);
    log.put("runs", List.of(run));
    return log;
  }

  private static Map<String, Object> result(Finding f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ruleId", f.check().id());
    m.put("ruleIndex", f.check().ordinal());
    m.put("level", f.severity().sarifLevel());
    m.put("message", Map.of("text", f.message() + (f.fix().isEmpty() ? "" : " Fix: " + f.fix())));
    Location l = f.location();
    Map<String, Object> physical = new LinkedHashMap<>();
    physical.put("artifactLocation", Map.of("uri", l.file()));
    if (l.line() > 0) {
      Map<String, Object> region = new LinkedHashMap<>();
      region.put("startLine", l.line());
      if (l.column() > 0) {
        region.put("startColumn", l.column());
      }
      physical.put("region", region);
    }
    Map<String, Object> loc = new LinkedHashMap<>();
    loc.put("physicalLocation", physical);
    String logical = logical(l);
    if (!logical.isEmpty()) {
      loc.put(
          "logicalLocations",
          List.of(
              Map.of(
                  "fullyQualifiedName",
                  logical,
                  "kind",
                  l.dashboard().isEmpty() && l.panel().isEmpty() ? "member" : "object")));
    }
    m.put("locations", List.of(loc));
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("fix", f.fix());
    props.put("subject", f.subject());
    m.put("properties", props);
    return m;
  }

  private static String logical(Location l) {
    if (!l.dashboard().isEmpty() || !l.panel().isEmpty()) {
      return l.dashboard() + "/" + l.panel() + (l.refId().isEmpty() ? "" : "/" + l.refId());
    }
    if (!l.rule().isEmpty()) {
      return l.group() + "/" + l.rule();
    }
    return "";
  }

  private static String camel(String id) {
    StringBuilder sb = new StringBuilder();
    for (String part : id.split("-")) {
      sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return sb.toString();
  }

  /** The SARIF log as indented JSON text. */
  public static String render(LintResult r, String toolVersion) {
    return JsonReport.write(tree(r, toolVersion));
  }
}
