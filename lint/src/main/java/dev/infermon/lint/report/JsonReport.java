package dev.infermon.lint.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.infermon.lint.Finding;
import dev.infermon.lint.Location;
import dev.infermon.lint.Severity;
import dev.infermon.lint.run.LintResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lint results as JSON, the shape {@code infermon lint -o json} prints and {@code /api/v1/llm/lint}
 * returns in {@code data} (docs/http-api.md). Stateless.
 */
public final class JsonReport {
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  /** The result as a JSON-ready tree of maps and lists. */
  public static Map<String, Object> tree(LintResult r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("reference", r.reference());
    out.put("inputs", r.inputs());
    out.put("queries", r.queries());
    Map<String, Object> summary = new LinkedHashMap<>();
    for (Severity s : Severity.values()) {
      summary.put(s.label(), r.count(s));
    }
    out.put("summary", summary);
    List<Object> findings = new ArrayList<>();
    for (Finding f : r.findings()) {
      findings.add(finding(f));
    }
    out.put("findings", findings);
    return out;
  }

  static Map<String, Object> finding(Finding f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("check", f.check().id());
    m.put("severity", f.severity().label());
    m.put("message", f.message());
    m.put("fix", f.fix());
    m.put("subject", f.subject());
    m.put("location", location(f.location()));
    return m;
  }

  static Map<String, Object> location(Location l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("file", l.file());
    m.put("line", l.line());
    m.put("column", l.column());
    m.put("group", l.group());
    m.put("rule", l.rule());
    m.put("dashboard", l.dashboard());
    m.put("panel", l.panel());
    m.put("refId", l.refId());
    return m;
  }

  /** The result as indented JSON text. */
  public static String render(LintResult r) {
    return write(tree(r));
  }

  static String write(Object tree) {
    try {
      return JSON.writeValueAsString(tree) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
