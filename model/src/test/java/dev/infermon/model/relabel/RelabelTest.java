package dev.infermon.model.relabel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of {@code TestRelabel} in Prometheus's {@code model/relabel/relabel_test.go}, in the
 * same order, plus a few of our own at the end. A null output means the label set is dropped.
 */
class RelabelTest {
  record Case(String name, Labels input, List<RelabelConfig> steps, Labels output) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static RelabelConfig step(UnaryOperator<RelabelConfig.Builder> f) {
    return f.apply(RelabelConfig.builder()).build();
  }

  private static Labels l(String... kv) {
    return Labels.of(kv);
  }

  static Stream<Case> cases() {
    Labels abc = l("a", "foo", "b", "bar", "c", "baz");
    Labels ports = l("__tmp_port", "1234", "__port1", "1234", "__port2", "5678");
    return Stream.of(
        new Case(
            "replace with ${1} twice",
            abc,
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("f(.*)")
                            .targetLabel("d")
                            .replacement("ch${1}-ch${1}"))),
            l("a", "foo", "b", "bar", "c", "baz", "d", "choo-choo")),
        new Case(
            "two sources, two steps, $1$2$2$3",
            abc,
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a", "b"))
                            .regex("f(.*);(.*)r")
                            .targetLabel("a")
                            .replacement("b${1}${2}m")),
                step(
                    s ->
                        s.sourceLabels(List.of("c", "a"))
                            .regex("(b).*b(.*)ba(.*)")
                            .targetLabel("d")
                            .replacement("$1$2$2$3"))),
            l("a", "boobam", "b", "bar", "c", "baz", "d", "boooom")),
        new Case(
            "drop stops processing",
            l("a", "foo"),
            List.of(
                step(s -> s.sourceLabels(List.of("a")).regex(".*o.*").action(Action.DROP)),
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("f(.*)")
                            .targetLabel("d")
                            .replacement("ch$1-ch$1"))),
            null),
        new Case(
            "drop on match",
            l("a", "foo", "b", "bar"),
            List.of(step(s -> s.sourceLabels(List.of("a")).regex(".*o.*").action(Action.DROP))),
            null),
        new Case(
            "replace with inner group",
            l("a", "abc"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex(".*(b).*")
                            .targetLabel("d")
                            .replacement("$1"))),
            l("a", "abc", "d", "b")),
        new Case(
            "drop without match keeps",
            l("a", "foo"),
            List.of(step(s -> s.sourceLabels(List.of("a")).regex("no-match").action(Action.DROP))),
            l("a", "foo")),
        new Case(
            "drop regex is anchored",
            l("a", "foo"),
            List.of(step(s -> s.sourceLabels(List.of("a")).regex("f|o").action(Action.DROP))),
            l("a", "foo")),
        new Case(
            "keep without match drops",
            l("a", "foo"),
            List.of(step(s -> s.sourceLabels(List.of("a")).regex("no-match").action(Action.KEEP))),
            null),
        new Case(
            "keep with match keeps",
            l("a", "foo"),
            List.of(step(s -> s.sourceLabels(List.of("a")).regex("f.*").action(Action.KEEP))),
            l("a", "foo")),
        new Case(
            "no replacement without a match",
            l("a", "boo"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("f")
                            .targetLabel("b")
                            .replacement("bar"))),
            l("a", "boo")),
        new Case(
            "hashmod of baz is 976",
            abc,
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("c"))
                            .targetLabel("d")
                            .action(Action.HASHMOD)
                            .modulus(1000))),
            l("a", "foo", "b", "bar", "c", "baz", "d", "976")),
        new Case(
            "hashmod of a value with a newline is 734",
            l("a", "foo\nbar"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .targetLabel("b")
                            .action(Action.HASHMOD)
                            .modulus(1000))),
            l("a", "foo\nbar", "b", "734")),
        new Case(
            "labelmap with prefix",
            l("a", "foo", "b1", "bar", "b2", "baz"),
            List.of(step(s -> s.regex("(b.*)").replacement("bar_${1}").action(Action.LABELMAP))),
            l("a", "foo", "b1", "bar", "b2", "baz", "bar_b1", "bar", "bar_b2", "baz")),
        new Case(
            "labelmap of meta labels",
            l("a", "foo", "__meta_my_bar", "aaa", "__meta_my_baz", "bbb", "__meta_other", "ccc"),
            List.of(
                step(s -> s.regex("__meta_(my.*)").replacement("${1}").action(Action.LABELMAP))),
            l(
                "a",
                "foo",
                "__meta_my_bar",
                "aaa",
                "__meta_my_baz",
                "bbb",
                "__meta_other",
                "ccc",
                "my_bar",
                "aaa",
                "my_baz",
                "bbb")),
        new Case(
            "target label from a group",
            l("a", "some-name-value"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("some-([^-]+)-([^,]+)")
                            .replacement("${2}")
                            .targetLabel("${1}"))),
            l("a", "some-name-value", "name", "value")),
        new Case(
            "replacement from a missing group is empty, so nothing is set",
            l("a", "some-name-value"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("some-([^-]+)-([^,]+)")
                            .replacement("${3}")
                            .targetLabel("${1}"))),
            l("a", "some-name-value")),
        new Case(
            "invalid expanded target labels are skipped",
            l("a", "some-name-0"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("some-([^-]+)-([^,]+)")
                            .replacement("${1}")
                            .targetLabel("${3}")),
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("some-([^-]+)-([^,]+)")
                            .replacement("${1}")
                            .targetLabel("${3}")),
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("some-([^-]+)(-[^,]+)")
                            .replacement("${1}")
                            .targetLabel("${3}"))),
            l("a", "some-name-0")),
        new Case(
            "real-life tag parsing",
            l("__meta_sd_tags", "path:/secret,job:some-job,label:foo=bar"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("__meta_sd_tags"))
                            .regex("(?:.+,|^)path:(/[^,]+).*")
                            .replacement("${1}")
                            .targetLabel("__metrics_path__")),
                step(
                    s ->
                        s.sourceLabels(List.of("__meta_sd_tags"))
                            .regex("(?:.+,|^)job:([^,]+).*")
                            .replacement("${1}")
                            .targetLabel("job")),
                step(
                    s ->
                        s.sourceLabels(List.of("__meta_sd_tags"))
                            .regex("(?:.+,|^)label:([^=]+)=([^,]+).*")
                            .replacement("${2}")
                            .targetLabel("${1}"))),
            l(
                "__meta_sd_tags",
                "path:/secret,job:some-job,label:foo=bar",
                "__metrics_path__",
                "/secret",
                "job",
                "some-job",
                "foo",
                "bar")),
        new Case(
            "prometheus issue 12283: labeldrop then replace the same label then keep",
            l(
                "__meta_kubernetes_pod_container_port_name",
                "foo",
                "__meta_kubernetes_pod_annotation_XXX_metrics_port",
                "9091"),
            List.of(
                step(
                    s ->
                        s.regex("^__meta_kubernetes_pod_container_port_name$")
                            .action(Action.LABELDROP)),
                step(
                    s ->
                        s.sourceLabels(List.of("__meta_kubernetes_pod_annotation_XXX_metrics_port"))
                            .regex("(.+)")
                            .replacement("metrics")
                            .targetLabel("__meta_kubernetes_pod_container_port_name")),
                step(
                    s ->
                        s.sourceLabels(List.of("__meta_kubernetes_pod_container_port_name"))
                            .regex("^metrics$")
                            .action(Action.KEEP))),
            l(
                "__meta_kubernetes_pod_annotation_XXX_metrics_port",
                "9091",
                "__meta_kubernetes_pod_container_port_name",
                "metrics")),
        new Case(
            "labelkeep",
            l("a", "foo", "b1", "bar", "b2", "baz"),
            List.of(step(s -> s.regex("(b.*)").action(Action.LABELKEEP))),
            l("b1", "bar", "b2", "baz")),
        new Case(
            "labeldrop",
            l("a", "foo", "b1", "bar", "b2", "baz"),
            List.of(step(s -> s.regex("(b.*)").action(Action.LABELDROP))),
            l("a", "foo")),
        new Case(
            "uppercase and lowercase",
            l("foo", "bAr123Foo"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("foo"))
                            .action(Action.UPPERCASE)
                            .targetLabel("foo_uppercase")),
                step(
                    s ->
                        s.sourceLabels(List.of("foo"))
                            .action(Action.LOWERCASE)
                            .targetLabel("foo_lowercase"))),
            l("foo", "bAr123Foo", "foo_lowercase", "bar123foo", "foo_uppercase", "BAR123FOO")),
        new Case(
            "keepequal with equal values keeps",
            ports,
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("__tmp_port"))
                            .action(Action.KEEP_EQUAL)
                            .targetLabel("__port1"))),
            ports),
        new Case(
            "dropequal with equal values drops",
            ports,
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("__tmp_port"))
                            .action(Action.DROP_EQUAL)
                            .targetLabel("__port1"))),
            null),
        new Case(
            "dropequal with different values keeps",
            ports,
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("__tmp_port"))
                            .action(Action.DROP_EQUAL)
                            .targetLabel("__port2"))),
            ports),
        new Case(
            "keepequal with different values drops",
            ports,
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("__tmp_port"))
                            .action(Action.KEEP_EQUAL)
                            .targetLabel("__port2"))),
            null),
        // Our own cases from here on.
        new Case(
            "static label via the fast path (no sources, default regex)",
            l("a", "1"),
            List.of(step(s -> s.targetLabel("env").replacement("prod"))),
            l("a", "1", "env", "prod")),
        new Case(
            "empty replacement deletes the target",
            l("a", "1", "b", "2"),
            List.of(step(s -> s.sourceLabels(List.of("a")).targetLabel("b").replacement(""))),
            l("a", "1")),
        new Case(
            "named groups expand by name, Go style with underscores",
            l("__address__", "10.0.0.1:8000"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("__address__"))
                            .regex("(?P<host_ip>[^:]+):(?P<port>\\d+)")
                            .targetLabel("instance")
                            .replacement("$host_ip-${port}"))),
            l("__address__", "10.0.0.1:8000", "instance", "10.0.0.1-8000")),
        new Case(
            "$1x is the group named 1x (absent), not $1 then x",
            l("a", "v"),
            List.of(
                step(
                    s ->
                        s.sourceLabels(List.of("a"))
                            .regex("(v)")
                            .targetLabel("b")
                            .replacement("$1x-$$"))),
            l("a", "v", "b", "-$")),
        new Case(
            "dot matches newline as in Prometheus 3",
            l("a", "x\ny"),
            List.of(step(s -> s.sourceLabels(List.of("a")).regex("x.y").action(Action.KEEP))),
            l("a", "x\ny")),
        new Case(
            "$ in a regex does not match before a trailing newline (RE2 semantics)",
            l("a", "x\n"),
            List.of(step(s -> s.sourceLabels(List.of("a")).regex("x$\\n?").action(Action.DROP))),
            l("a", "x\n")),
        new Case(
            "labelmap: the later source wins when two map to one name",
            l("__meta_a_x", "1", "__meta_b_x", "2"),
            List.of(
                step(s -> s.regex("__meta_[ab]_(x)").replacement("$1").action(Action.LABELMAP))),
            l("__meta_a_x", "1", "__meta_b_x", "2", "x", "2")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void processesAsPrometheusDoes(Case c) {
    assertThat(Relabel.process(c.input(), c.steps())).isEqualTo(c.output());
  }
}
