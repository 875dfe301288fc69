package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.signals.Signal;
import dev.infermon.promql.parser.PromqlParser;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The per-step gain of every counter signal, over every family of every engine, is PromQL that
 * parses: a source that adds several families names each with {@code label_replace}, and PromQL
 * takes {@code offset} only on a selector, never after a function call (the report's traffic query
 * once put it there).
 */
class CompileGainParsesTest {
  static Stream<Signal> counters() {
    return Arrays.stream(Signal.values()).filter(s -> s.kind() == Signal.Kind.COUNTER);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("counters")
  void theGainOfEveryCounterParses(Signal s) {
    PromqlCompiler compiler = new PromqlCompiler(Catalog.builtIn());
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.of(Map.of()), Map.of(), 0.5, "5m", (e, v, m) -> true, "30s");
    Optional<String> q = compiler.compileGain(s, List.of("model_name"), o);
    q.ifPresent(
        expr -> assertThatCode(() -> PromqlParser.parse(expr)).as(expr).doesNotThrowAnyException());
  }
}
