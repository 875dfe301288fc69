package dev.infermon.rules.rulefmt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rule files load as Prometheus's {@code rulefmt} reads them; each bad file reports file, line,
 * column, group, rule and Prometheus's message (promtool 2.42's output for the same files is the
 * reference for the wording; templates additionally name their column).
 */
class RuleFileParserTest {
  record Bad(String yaml, List<String> errors) {
    @Override
    public String toString() {
      return errors.get(0);
    }
  }

  static Stream<Bad> badFiles() {
    return Stream.of(
        new Bad(
            "groups:\n  - name: g1\n    rules:\n      - record: job:up:sum\n        expr: sum by (job) (up\n",
            List.of(
                "r.yml: 5:15: group \"g1\", rule 1, \"job:up:sum\": could not parse expression:"
                    + " 1:17: parse error: unclosed left parenthesis")),
        new Bad(
            "groups:\n  - name: g1\n    rules:\n      - alert: Down\n        expr: up == 0\n"
                + "        annotations:\n          summary: \"{{ $labels.instance \"\n",
            List.of(
                "r.yml: 7:20: group \"g1\", rule 1, \"Down\": annotation \"summary\": template:"
                    + " __alert_Down:1: unclosed action (column 1 of the template)")),
        new Bad(
            "groups:\n  - name: g1\n    rules:\n      - alert: Down\n        expr: up == 0\n"
                + "        labels:\n          sev: \"{{ nosuchfunc }}\"\n",
            List.of(
                "r.yml: 7:16: group \"g1\", rule 1, \"Down\": label \"sev\": template:"
                    + " __alert_Down:1: function \"nosuchfunc\" not defined (column 4 of the template)")),
        new Bad(
            "groups:\n  - name: g1\n    rules:\n      - record: x\n        alert: y\n        expr: up\n",
            List.of(
                "r.yml: 4:17: group \"g1\", rule 1, \"y\": only one of 'record' and 'alert' must be set")),
        new Bad(
            "groups:\n  - name: g1\n    rules:\n      - expr: up\n",
            List.of(
                "r.yml: 4:9: group \"g1\", rule 1, \"\": one of 'record' or 'alert' must be set")),
        new Bad(
            "groups:\n  - name: g1\n    rules:\n      - record: a\n",
            List.of("r.yml: 4:9: group \"g1\", rule 1, \"a\": field 'expr' must be set in rule")),
        new Bad(
            "groups:\n  - name: g1\n    rules: []\n  - name: g1\n    rules: []\n",
            List.of("r.yml: 4:5: groupname: \"g1\" is repeated in the same file")),
        new Bad(
            "groups:\n  - name: \"\"\n    rules: []\n",
            List.of("r.yml: 2:5: Groupname must not be empty")),
        new Bad(
            "groups:\n  - name: g\n    rules:\n      - record: \"a{b}\"\n        expr: up\n        for: 1m\n",
            List.of(
                "r.yml: 4:17: group \"g\", rule 1, \"a{b}\": invalid field 'for' in recording rule",
                "r.yml: 4:17: group \"g\", rule 1, \"a{b}\": braces present in the recording rule"
                    + " name; should it be in expr?: a{b}")),
        new Bad(
            "groups:\n  - name: g\n    rules:\n      - record: r\n        expr: up\n"
                + "        annotations:\n          a: b\n        keep_firing_for: 5m\n",
            List.of(
                "r.yml: 4:17: group \"g\", rule 1, \"r\": invalid field 'annotations' in recording rule",
                "r.yml: 4:17: group \"g\", rule 1, \"r\": invalid field 'keep_firing_for' in recording"
                    + " rule")),
        new Bad(
            "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: up\n        labels:\n"
                + "          __name__: x\n",
            List.of("r.yml: 7:11: group \"g\", rule 1, \"A\": invalid label name: __name__")),
        new Bad(
            "groups:\n  - name: g1\n    rules:\n      - record: a\n        expr: up\n        fore: 5m\n",
            List.of("r.yml: 6:9: groups[0].rules[0].fore: unknown key; did you mean for?")),
        new Bad(
            "groups:\n  - name: g1\n    interval: 1x\n    rules: []\n",
            List.of("r.yml: 3:15: groups[0].interval: unknown unit \"x\" in duration \"1x\"")),
        new Bad("groups:\n  - name: [\n", List.of()),
        // a PrometheusRule resource: problems at their place in the resource, paths under spec
        new Bad(
            PROMETHEUS_RULE_HEAD + "      - record: job:up:sum\n        expr: sum by (job) (up\n",
            List.of(
                "r.yml: 11:15: group \"g1\", rule 1, \"job:up:sum\": could not parse expression:"
                    + " 1:17: parse error: unclosed left parenthesis")),
        new Bad(
            PROMETHEUS_RULE_HEAD + "      - record: a\n        expr: up\n        fore: 5m\n",
            List.of("r.yml: 12:9: spec.groups[0].rules[0].fore: unknown key; did you mean for?")),
        new Bad(
            "apiVersion: monitoring.coreos.com/v1\nkind: ConfigMap\nspec:\n  groups: []\n",
            List.of("r.yml: 2:7: kind: kind ConfigMap holds no rules; expected PrometheusRule")),
        new Bad(
            "apiVersion: monitoring.coreos.com/v1beta1\nkind: PrometheusRule\nspec:\n  groups: []\n",
            List.of(
                "r.yml: 1:13: apiVersion: apiVersion monitoring.coreos.com/v1beta1 is not served"
                    + " for PrometheusRule; expected monitoring.coreos.com/v1")),
        new Bad(
            "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nspecs:\n  groups: []\n",
            List.of(
                "r.yml: 1:1: a PrometheusRule needs a spec with groups",
                "r.yml: 3:1: specs: unknown key; did you mean spec?")));
  }

  static final String PROMETHEUS_RULE_HEAD =
      "apiVersion: monitoring.coreos.com/v1\n"
          + "kind: PrometheusRule\n"
          + "metadata:\n"
          + "  name: llm\n"
          + "  labels: {release: kps}\n"
          + "spec:\n"
          + "  groups:\n"
          + "    - name: g1\n"
          + "      rules:\n";

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFiles")
  void badFilesNameFileLineAndRule(Bad bad) {
    assertThatThrownBy(() -> RuleFileParser.parse("r.yml", bad.yaml()))
        .isInstanceOfSatisfying(
            RuleFileException.class,
            e -> {
              if (bad.errors().isEmpty()) {
                assertThat(e.errors()).isNotEmpty();
                assertThat(e.errors().get(0).toString())
                    .startsWith("r.yml: ")
                    .contains("invalid YAML");
              } else {
                assertThat(e.errors())
                    .extracting(RuleError::toString)
                    .containsExactlyElementsOf(bad.errors());
              }
            });
  }

  @Test
  void goodFileKeepsEverything() {
    RuleFile f =
        RuleFileParser.parse(
            "ok.yml",
            "groups:\n"
                + "  - name: g\n"
                + "    interval: 30s\n"
                + "    limit: 10\n"
                + "    query_offset: 1m\n"
                + "    rules:\n"
                + "      - record: job:up:sum\n"
                + "        expr: sum by (job) (up)\n"
                + "        labels: {team: a}\n"
                + "      - alert: Down\n"
                + "        expr: up == 0\n"
                + "        for: 5m\n"
                + "        keep_firing_for: 10m\n"
                + "        annotations:\n"
                + "          summary: '{{ $labels.instance }} is down'\n");
    assertThat(f.ruleCount()).isEqualTo(2);
    GroupSpec g = f.groups().get(0);
    assertThat(g.interval()).contains(Duration.ofSeconds(30));
    assertThat(g.queryOffset()).contains(Duration.ofMinutes(1));
    assertThat(g.limit()).isEqualTo(10);
    RuleSpec alert = g.rules().get(1);
    assertThat(alert.alert()).isTrue();
    assertThat(alert.forDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(alert.keepFiringFor()).isEqualTo(Duration.ofMinutes(10));
    assertThat(alert.annotationTemplates()).containsKey("summary");
    assertThat(g.rules().get(0).labels()).containsEntry("team", "a");
  }

  @Test
  void prometheusRuleIsReadAsTheRuleFileOfItsSpec() {
    RuleFile f =
        RuleFileParser.parse(
            "pr.yaml",
            PROMETHEUS_RULE_HEAD
                + "      - alert: Down\n"
                + "        expr: up == 0\n"
                + "        for: 5m\n"
                + "    - name: g2\n"
                + "      partial_response_strategy: warn\n"
                + "      interval: 30s\n"
                + "      rules:\n"
                + "        - record: job:up:sum\n"
                + "          expr: sum by (job) (up)\n");
    assertThat(f.groups()).extracting(GroupSpec::name).containsExactly("g1", "g2");
    assertThat(f.ruleCount()).isEqualTo(2);
    RuleSpec down = f.groups().get(0).rules().get(0);
    assertThat(down.name()).isEqualTo("Down");
    assertThat(down.line()).as("line in the resource, not in its spec").isEqualTo(10);
    assertThat(down.forDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(f.groups().get(1).interval()).contains(Duration.ofSeconds(30));
    assertThat(f.groups().get(1).rules().get(0).line()).isEqualTo(17);
  }

  @Test
  void emptyFileHasNoGroups() {
    assertThat(RuleFileParser.parse("e.yml", "").groups()).isEmpty();
  }
}
