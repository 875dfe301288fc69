package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.infermon.model.labels.Matcher;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code match[]} selectors for the HTTP API. */
class MetricSelectorTest {

  @Test
  void returnsMatchersWithTheNameLast() {
    assertThat(PromqlParser.parseMetricSelector("up{job=\"api\",a!~\"b\"}"))
        .containsExactly(
            Matcher.notRegex("a", "b"), Matcher.equal("job", "api"), Matcher.metricName("up"));
  }

  @Test
  void acceptsBracesOnlyQuotedNamesAndKeywordNames() {
    assertThat(PromqlParser.parseMetricSelector("{__name__=~\"a|b\"}"))
        .containsExactly(Matcher.regex("__name__", "a|b"));
    assertThat(PromqlParser.parseMetricSelector("{\"my.metric\"}"))
        .containsExactly(Matcher.metricName("my.metric"));
    assertThat(PromqlParser.parseMetricSelector("sum")).containsExactly(Matcher.metricName("sum"));
  }

  @Test
  void likePrometheusDoesNotRequireANonEmptyMatcher() {
    assertThat(PromqlParser.parseMetricSelector("{}")).isEqualTo(List.of());
  }

  @Test
  void rejectsAnythingButASelector() {
    ParseException e =
        catchThrowableOfType(
            ParseException.class, () -> PromqlParser.parseMetricSelector("up[5m]"));
    assertThat(e.detail()).isEqualTo("unexpected \"[\"");
    ParseException f =
        catchThrowableOfType(
            ParseException.class, () -> PromqlParser.parseMetricSelector("rate(x)"));
    assertThat(f.detail()).isEqualTo("unexpected \"(\"");
  }
}
