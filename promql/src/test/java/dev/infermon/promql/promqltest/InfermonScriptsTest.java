package dev.infermon.promql.promqltest;

import dev.infermon.promql.engine.EngineOptions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.TestFactory;

/**
 * The project's own scripts over vLLM- and SGLang-shaped data: the queries the dashboards and
 * default alerts use, with hand-computed expectations. They run with the engine's defaults (names
 * dropped at once, as Prometheus does without feature flags).
 */
class InfermonScriptsTest {
  private static final List<String> FILES = List.of("vllm", "sglang");

  @TestFactory
  Stream<DynamicContainer> infermonScripts() {
    return FILES.stream()
        .map(
            f ->
                ScriptTests.script(
                    f + ".test",
                    ScriptTests.resource("/promqltest/infermon/" + f + ".test"),
                    EngineOptions.DEFAULTS,
                    Map.of()));
  }
}
