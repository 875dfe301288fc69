package dev.infermon.promql.promqltest;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.TestFactory;

/**
 * Prometheus's own promqltest scripts (copied into test resources, Apache-2.0) against the engine,
 * with Prometheus's test-engine settings. Skipped evals and their reasons are in {@link
 * PrometheusSkips}.
 */
class PrometheusScriptsTest {
  private static final List<String> FILES =
      List.of(
          "literals",
          "selectors",
          "staleness",
          "operators",
          "aggregators",
          "functions",
          "at_modifier",
          "subquery",
          "range_queries",
          "collision",
          "name_label_dropping",
          "trig_functions",
          "histograms");

  @TestFactory
  Stream<DynamicContainer> prometheusScripts() {
    return FILES.stream()
        .map(
            f ->
                ScriptTests.script(
                    f + ".test",
                    ScriptTests.resource("/promqltest/prometheus/" + f + ".test"),
                    Session.prometheusTestOptions(),
                    PrometheusSkips.forFile(f + ".test")));
  }
}
