package dev.infermon.rules.unittest;

import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Pos;
import dev.infermon.config.yaml.Problem;
import dev.infermon.config.yaml.Reader;
import dev.infermon.config.yaml.Section;
import dev.infermon.config.yaml.YamlTree;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A promtool rule unit-test file ({@code docs/configuration/unit_testing_rules.md}), read strictly:
 * unknown keys are errors as in promtool's {@code UnmarshalStrict}.
 */
record TestFile(
    List<String> ruleFiles,
    Duration evaluationInterval,
    List<String> groupEvalOrder,
    List<TestGroup> tests) {

  record InputSeries(String series, String values) {}

  record ExpAlert(Map<String, String> labels, Map<String, String> annotations) {}

  record AlertTest(Duration evalTime, String alertname, List<ExpAlert> expAlerts) {}

  record ExpSample(String labels, double value) {}

  record ExprTest(String expr, Duration evalTime, List<ExpSample> expSamples) {}

  record TestGroup(
      String name,
      Duration interval,
      List<InputSeries> inputSeries,
      List<AlertTest> alertTests,
      List<ExprTest> exprTests,
      Map<String, String> externalLabels,
      String externalUrl) {}

  static final Section FILE =
      Section.of(
          "unit_test_file",
          List.of(
              "rule_files", "evaluation_interval", "group_eval_order", "tests", "fuzzy_compare"));
  static final Section GROUP =
      Section.of(
          "test_group",
          List.of(
              "interval",
              "input_series",
              "alert_rule_test",
              "promql_expr_test",
              "external_labels",
              "external_url",
              "name"));
  static final Section SERIES = Section.of("series", List.of("series", "values"));
  static final Section ALERT_TEST =
      Section.of("alert_test_case", List.of("eval_time", "alertname", "exp_alerts"));
  static final Section EXP_ALERT = Section.of("alert", List.of("exp_labels", "exp_annotations"));
  static final Section EXPR_TEST =
      Section.of("promql_test_case", List.of("expr", "eval_time", "exp_samples"));
  static final Section SAMPLE = Section.of("sample", List.of("labels", "value", "histogram"));

  /**
   * Parses a file.
   *
   * @throws IllegalArgumentException listing the problems
   */
  static TestFile parse(String source, String text) {
    Reader reader = new Reader(null);
    Node root = YamlTree.parse(text, source, reader);
    MapView v = reader.view(root, new Pos(source, 1, 1), "", FILE);
    List<String> ruleFiles = v.strings("rule_files", List.of());
    Duration evalInterval = v.duration("evaluation_interval", Duration.ofMinutes(1));
    if (evalInterval.isZero()) {
      evalInterval = Duration.ofMinutes(1);
    }
    List<String> order = v.strings("group_eval_order", List.of());
    v.bool("fuzzy_compare", false);
    List<TestGroup> tests = v.list("tests", (n, p) -> group(reader.view(n, n.pos(), p, GROUP)));
    v.finish();
    List<Problem> errors = reader.errors();
    if (!errors.isEmpty()) {
      StringBuilder sb = new StringBuilder();
      for (Problem e : errors) {
        sb.append(sb.length() == 0 ? "" : "\n").append(e);
      }
      throw new IllegalArgumentException(sb.toString());
    }
    return new TestFile(ruleFiles, evalInterval, order, tests);
  }

  private static TestGroup group(MapView g) {
    Duration interval = g.duration("interval", Duration.ofMinutes(1));
    if (interval.isZero()) {
      interval = Duration.ofMinutes(1);
    }
    List<InputSeries> series =
        g.list(
            "input_series",
            (n, p) -> {
              MapView s = g.reader().view(n, n.pos(), p, SERIES);
              InputSeries is = new InputSeries(s.string("series", ""), s.string("values", ""));
              s.finish();
              return is;
            });
    List<AlertTest> alerts =
        g.list(
            "alert_rule_test",
            (n, p) -> {
              MapView a = g.reader().view(n, n.pos(), p, ALERT_TEST);
              List<ExpAlert> exp =
                  a.list(
                      "exp_alerts",
                      (n2, p2) -> {
                        MapView e = g.reader().view(n2, n2.pos(), p2, EXP_ALERT);
                        ExpAlert ea =
                            new ExpAlert(e.stringMap("exp_labels"), e.stringMap("exp_annotations"));
                        e.finish();
                        return ea;
                      });
              AlertTest t =
                  new AlertTest(
                      a.duration("eval_time", Duration.ZERO), a.string("alertname", ""), exp);
              a.finish();
              return t;
            });
    List<ExprTest> exprs =
        g.list(
            "promql_expr_test",
            (n, p) -> {
              MapView e = g.reader().view(n, n.pos(), p, EXPR_TEST);
              List<ExpSample> samples =
                  e.list(
                      "exp_samples",
                      (n2, p2) -> {
                        MapView s = g.reader().view(n2, n2.pos(), p2, SAMPLE);
                        ExpSample es = new ExpSample(s.string("labels", ""), s.number("value", 0));
                        s.finish();
                        return es;
                      });
              ExprTest t =
                  new ExprTest(
                      e.string("expr", ""), e.duration("eval_time", Duration.ZERO), samples);
              e.finish();
              return t;
            });
    TestGroup tg =
        new TestGroup(
            g.string("name", ""),
            interval,
            series,
            alerts,
            exprs,
            g.stringMap("external_labels"),
            g.string("external_url", ""));
    g.finish();
    return tg;
  }
}
