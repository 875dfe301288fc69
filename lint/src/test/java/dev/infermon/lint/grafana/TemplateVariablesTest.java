package dev.infermon.lint.grafana;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Grafana variables become placeholders that parse where they stand. */
class TemplateVariablesTest {
  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          rate(x[$__rate_interval])               | rate(x[5m])
          x - x offset $__interval                | x - x offset 5m
          x - x OFFSET -$__interval               | x - x OFFSET -5m
          x{pod=~"$pod"}                          | x{pod=~".*"}
          sum by ($group) (x)                     | sum by (__tmpl_group) (x)
          x > $threshold                          | x > NaN
          """)
  void placeholdersParseWhereTheyStand(String raw, String substituted) {
    assertThat(TemplateVariables.substitute(raw).text()).isEqualTo(substituted);
  }
}
