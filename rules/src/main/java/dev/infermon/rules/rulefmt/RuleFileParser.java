package dev.infermon.rules.rulefmt;

import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Pos;
import dev.infermon.config.yaml.Problem;
import dev.infermon.config.yaml.Reader;
import dev.infermon.config.yaml.Section;
import dev.infermon.config.yaml.YamlTree;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.rules.template.Template;
import dev.infermon.rules.template.TemplateException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads Prometheus rule files ({@code model/rulefmt}): strict YAML (unknown keys are errors, with
 * the closest known key), then Prometheus's checks with its messages, and every alert template
 * parsed. All problems of a file are reported at once, each with file, line and rule. A
 * prometheus-operator {@code PrometheusRule} resource ({@code apiVersion:
 * monitoring.coreos.com/v1}, {@code kind: PrometheusRule}) is read as the rule file its {@code
 * spec} holds, positions and all, so the operator's users lint and unit-test the file they apply.
 * Stateless.
 */
public final class RuleFileParser {
  static final Section FILE = Section.of("rule_file", List.of("groups"));
  static final Section GROUP =
      Section.of(
          "rule_group", List.of("name", "interval", "query_offset", "limit", "rules", "labels"));

  /** A Kubernetes resource: {@code metadata} is the API server's business, not checked here. */
  static final Section RESOURCE =
      Section.of("PrometheusRule", List.of("apiVersion", "kind", "metadata", "spec"));

  /** prometheus-operator's {@code PrometheusRuleSpec}. */
  static final Section SPEC = Section.of("PrometheusRule spec", List.of("groups"));

  /** A group of a PrometheusRule: Thanos Ruler's {@code partial_response_strategy} is allowed. */
  static final Section RESOURCE_GROUP =
      Section.of("rule_group", List.of("partial_response_strategy"), GROUP);

  /** The only API version prometheus-operator serves PrometheusRule under. */
  public static final String API_VERSION = "monitoring.coreos.com/v1";

  static final Section RULE =
      Section.of(
          "rule",
          List.of("record", "alert", "expr", "for", "keep_firing_for", "labels", "annotations"));

  private RuleFileParser() {}

  /**
   * Reads and validates a file.
   *
   * @throws RuleFileException listing every problem (an unreadable file is one problem)
   */
  public static RuleFile load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new RuleFileException(
          List.of(new RuleError(file.toString(), 0, 0, "", 0, "", "no such file or directory")));
    } catch (IOException e) {
      throw new RuleFileException(
          List.of(new RuleError(file.toString(), 0, 0, "", 0, "", e.getMessage())));
    }
    return parse(file.toString(), text);
  }

  /**
   * Validates rule-file text.
   *
   * @param file the name used in messages
   * @throws RuleFileException listing every problem
   */
  public static RuleFile parse(String file, String text) {
    List<RuleError> errors = new ArrayList<>();
    Reader reader = new Reader(null);
    Node root = YamlTree.parse(text, file, reader);
    boolean resource = isResource(root);
    MapView top;
    MapView outer = null;
    if (resource) {
      outer = reader.view(root, new Pos(file, 1, 1), "", RESOURCE);
      checkResource(outer);
      top = outer.map("spec", SPEC);
    } else {
      top = reader.view(root, new Pos(file, 1, 1), "", FILE);
    }
    Section groupSection = resource ? RESOURCE_GROUP : GROUP;
    List<GroupSpec> groups = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    top.list(
        "groups",
        (node, path) -> {
          MapView g = reader.view(node, node.pos(), path, groupSection);
          GroupSpec spec = group(file, g, errors);
          g.finish();
          if (spec.name().isEmpty()) {
            errors.add(at(file, g.pos(), "Groupname must not be empty"));
          } else if (seen.putIfAbsent(spec.name(), g.pos().line()) != null) {
            errors.add(
                at(
                    file,
                    g.pos(),
                    "groupname: \"" + spec.name() + "\" is repeated in the same file"));
          }
          groups.add(spec);
          return null;
        });
    top.finish();
    if (outer != null) {
      outer.finish();
    }
    List<RuleError> all = new ArrayList<>();
    for (Problem p : reader.errors()) {
      all.add(
          new RuleError(
              file,
              p.pos().line(),
              p.pos().column(),
              "",
              0,
              "",
              (p.path().isEmpty() ? "" : p.path() + ": ") + p.message()));
    }
    all.addAll(errors);
    if (!all.isEmpty()) {
      all.sort(
          (a, b) ->
              a.line() != b.line()
                  ? Integer.compare(a.line(), b.line())
                  : Integer.compare(a.column(), b.column()));
      throw new RuleFileException(all);
    }
    return new RuleFile(file, groups);
  }

  /**
   * Whether the document is a Kubernetes resource rather than a rule file: a rule file's only key
   * is {@code groups}, a resource always has {@code kind} or {@code apiVersion}.
   */
  private static boolean isResource(Node root) {
    return root instanceof Node.MapNode
        && (((Node.MapNode) root).entries().containsKey("kind")
            || ((Node.MapNode) root).entries().containsKey("apiVersion"));
  }

  private static void checkResource(MapView r) {
    String kind = r.string("kind", "");
    if (!kind.equals("PrometheusRule")) {
      r.error(
          "kind",
          kind.isEmpty()
              ? "a Kubernetes resource needs kind: PrometheusRule"
              : "kind " + kind + " holds no rules; expected PrometheusRule");
    }
    String version = r.string("apiVersion", "");
    if (!version.equals(API_VERSION)) {
      r.error(
          "apiVersion",
          version.isEmpty()
              ? "a PrometheusRule needs apiVersion: " + API_VERSION
              : "apiVersion "
                  + version
                  + " is not served for PrometheusRule; expected "
                  + API_VERSION);
    }
    if (!r.has("spec")) {
      r.error("a PrometheusRule needs a spec with groups");
    }
  }

  private static GroupSpec group(String file, MapView g, List<RuleError> errors) {
    String name = g.string("name", "");
    Duration interval = g.duration("interval", Duration.ZERO);
    Optional<Duration> offset =
        g.has("query_offset")
            ? Optional.of(g.duration("query_offset", Duration.ZERO))
            : Optional.empty();
    int limit = g.intCount("limit", 0);
    Map<String, String> labels = g.stringMap("labels");
    for (Map.Entry<String, String> l : labels.entrySet()) {
      if (!validLabelName(l.getKey())) {
        errors.add(at(file, g.pos("labels"), "invalid label name: " + l.getKey()));
      }
    }
    List<RuleSpec> rules = new ArrayList<>();
    int[] index = {0};
    g.list(
        "rules",
        (node, path) -> {
          index[0]++;
          MapView r = g.reader().view(node, node.pos(), path, RULE);
          RuleSpec spec = rule(file, name, index[0], r, errors);
          r.finish();
          if (spec != null) {
            rules.add(spec);
          }
          return null;
        });
    return new GroupSpec(
        name,
        interval.isZero() ? Optional.empty() : Optional.of(interval),
        offset,
        limit,
        labels,
        rules,
        g.pos().line());
  }

  private static RuleSpec rule(
      String file, String group, int index, MapView r, List<RuleError> errors) {
    String record = r.string("record", "");
    String alert = r.string("alert", "");
    String exprText = r.string("expr", "");
    Duration forDuration = r.duration("for", Duration.ZERO);
    Duration keepFiringFor = r.duration("keep_firing_for", Duration.ZERO);
    Map<String, String> labels = r.stringMap("labels");
    Map<String, String> annotations = r.stringMap("annotations");
    String name = alert.isEmpty() ? record : alert;
    int before = errors.size();
    Pos namePos = r.has("record") ? r.pos("record") : r.pos("alert");
    if (!record.isEmpty() && !alert.isEmpty()) {
      errors.add(
          rule(file, namePos, group, index, name, "only one of 'record' and 'alert' must be set"));
    }
    if (record.isEmpty() && alert.isEmpty()) {
      errors.add(rule(file, r.pos(), group, index, name, "one of 'record' or 'alert' must be set"));
    }
    Expr expr = null;
    if (exprText.isEmpty()) {
      errors.add(rule(file, r.pos(), group, index, name, "field 'expr' must be set in rule"));
    } else {
      try {
        expr = PromqlParser.parse(exprText);
      } catch (ParseException e) {
        errors.add(
            rule(
                file,
                r.pos("expr"),
                group,
                index,
                name,
                "could not parse expression: " + e.prometheusMessage()));
      }
    }
    if (!record.isEmpty()) {
      if (!annotations.isEmpty()) {
        errors.add(
            rule(
                file,
                namePos,
                group,
                index,
                name,
                "invalid field 'annotations' in recording rule"));
      }
      if (!forDuration.isZero()) {
        errors.add(
            rule(file, namePos, group, index, name, "invalid field 'for' in recording rule"));
      }
      if (!keepFiringFor.isZero()) {
        errors.add(
            rule(
                file,
                namePos,
                group,
                index,
                name,
                "invalid field 'keep_firing_for' in recording rule"));
      }
      if (record.contains("{") || record.contains("}")) {
        errors.add(
            rule(
                file,
                namePos,
                group,
                index,
                name,
                "braces present in the recording rule name; should it be in expr?: " + record));
      }
    }
    for (String k : labels.keySet()) {
      if (!validLabelName(k) || k.equals("__name__")) {
        errors.add(rule(file, r.pos("labels"), group, index, name, "invalid label name: " + k));
      }
    }
    for (String k : annotations.keySet()) {
      if (!validLabelName(k)) {
        errors.add(
            rule(file, r.pos("annotations"), group, index, name, "invalid annotation name: " + k));
      }
    }
    Map<String, Template> labelTemplates = new LinkedHashMap<>();
    Map<String, Template> annotationTemplates = new LinkedHashMap<>();
    if (!alert.isEmpty()) {
      templates(file, group, index, name, "label", r, "labels", labels, labelTemplates, errors);
      templates(
          file,
          group,
          index,
          name,
          "annotation",
          r,
          "annotations",
          annotations,
          annotationTemplates,
          errors);
    }
    if (errors.size() > before || expr == null) {
      return null;
    }
    return new RuleSpec(
        !alert.isEmpty(),
        name,
        exprText,
        expr,
        forDuration,
        keepFiringFor,
        labels,
        annotations,
        labelTemplates,
        annotationTemplates,
        r.pos().line());
  }

  private static void templates(
      String file,
      String group,
      int index,
      String name,
      String what,
      MapView r,
      String key,
      Map<String, String> texts,
      Map<String, Template> out,
      List<RuleError> errors) {
    Map<String, Node.Entry> entries = r.entries(key);
    for (Map.Entry<String, String> e : texts.entrySet()) {
      Node.Entry entry = entries.get(e.getKey());
      Pos pos = entry == null ? r.pos(key) : entry.value().pos();
      try {
        out.put(e.getKey(), Template.parseAlert(name, e.getValue()));
      } catch (TemplateException t) {
        errors.add(
            rule(
                file,
                pos,
                group,
                index,
                name,
                what
                    + " \""
                    + e.getKey()
                    + "\": "
                    + t.getMessage()
                    + " (column "
                    + (t.column() + 1)
                    + " of the template)"));
      }
    }
  }

  /** Prometheus 3 validates names as UTF-8: any non-empty string. */
  static boolean validLabelName(String name) {
    return !name.isEmpty();
  }

  private static RuleError at(String file, Pos pos, String message) {
    return new RuleError(file, pos.line(), pos.column(), "", 0, "", message);
  }

  private static RuleError rule(
      String file, Pos pos, String group, int index, String name, String message) {
    return new RuleError(file, pos.line(), pos.column(), group, index, name, message);
  }
}
