package dev.infermon.model.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The one "did you mean" as a table: the misspelt name, the known names, the suggestion. */
class SuggestTest {
  record Case(String name, List<String> known, String expected) {
    @Override
    public String toString() {
      return name + " -> " + expected;
    }
  }

  static Stream<Case> cases() {
    List<String> global = List.of("scrape_interval", "scrape_timeout", "evaluation_interval");
    return Stream.of(
        // Configuration keys (config's strict YAML, rule files).
        new Case(
            "scrape_config", List.of("global", "scrape_configs", "rule_files"), "scrape_configs"),
        new Case("scrape_intervl", global, "scrape_interval"),
        new Case("scrape_timout", global, "scrape_timeout"),
        new Case("port_nmae", List.of("port", "port_name", "namespaces"), "port_name"),
        new Case("pasword", List.of("username", "password", "password_file"), "password"),
        new Case("fore", List.of("alert", "expr", "for", "labels"), "for"),
        new Case("replica", List.of("replicas", "index", "source_labels"), "replicas"),
        new Case("frobnicate", List.of("global", "scrape_configs", "rule_files"), null),
        // Metric and label names in lint.
        new Case(
            "vllm:num_request_running",
            List.of("vllm:num_requests_running", "vllm:num_requests_waiting"),
            "vllm:num_requests_running"),
        new Case("modle_name", List.of("model_name", "engine"), "model_name"),
        new Case("model", List.of("model_name", "engine"), null), // 5 edits: not a typo
        // The rule itself.
        new Case("abc", List.of("abd", "abe"), "abd"), // equally close: alphabetically first
        new Case("abc", List.of("abe", "abd"), "abd"), // whatever the order
        new Case("abc", List.of("abc"), null), // the name itself is no suggestion
        new Case("job", List.of("pod"), null), // 3 letters: one edit only
        new Case("abcdefghi", List.of("abcxyzghi"), "abcxyzghi"), // 9 letters: three edits
        new Case("abcdefghi", List.of("abwxyzghi"), null),
        new Case("scrape_interval", List.of(), null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void suggests(Case c) {
    assertThat(Suggest.closest(c.name(), c.known())).isEqualTo(c.expected());
  }

  record Distance(String a, String b, int expected) {}

  static Stream<Distance> distances() {
    return Stream.of(
        new Distance("", "", 0),
        new Distance("", "abc", 3),
        new Distance("kitten", "sitting", 3),
        new Distance("port_nmae", "port_name", 1), // a transposition is one edit
        new Distance("ca", "abc", 3), // optimal string alignment: no edits inside a transposition
        new Distance("scrape_config", "scrape_configs", 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("distances")
  void distanceIsOptimalStringAlignment(Distance d) {
    assertThat(Suggest.distance(d.a(), d.b())).isEqualTo(d.expected());
    assertThat(Suggest.distance(d.b(), d.a())).isEqualTo(d.expected());
    if (d.expected() > 0) {
      assertThat(Suggest.distance(d.a(), d.b(), d.expected() - 1))
          .as("past the limit: the limit plus one")
          .isEqualTo(d.expected());
    }
  }
}
