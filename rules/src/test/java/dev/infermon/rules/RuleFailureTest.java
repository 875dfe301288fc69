package dev.infermon.rules;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * A rule that fails fails alone: the rules after it in its group still evaluate and their alerts
 * fire, its health says why, and the failure is logged once, not at every evaluation.
 */
class RuleFailureTest {
  /** A chain of {@code n} terms, as tools generate them. */
  static String chain(int n) {
    return "vector(1)" + " + vector(1)".repeat(n - 1);
  }

  static String file(String firstExpr) {
    return "groups:\n  - name: g\n    interval: 1s\n    rules:\n"
        + "      - record: first\n        expr: "
        + firstExpr
        + "\n      - alert: After\n        expr: vector(1) > 0\n"
        + "      - record: last\n        expr: vector(7)\n";
  }

  /**
   * The case on the real manager and engine: a 5,000-term chain first in its group used to
   * overflow the rule thread's stack, which stopped the group for good.
   */
  @Test
  void aLongChainFirstInItsGroupEvaluatesAndTheAlertAfterItFires() throws Exception {
    MemoryStorage s = new MemoryStorage();
    List<Notification> sent = new CopyOnWriteArrayList<>();
    RuleManagerOptions opts =
        RuleManagerOptions.defaults(
            new EngineQueryFunction(new Engine(EngineOptions.DEFAULTS), s), s, s, sent::addAll);
    try (RuleManager m = new RuleManager(opts, 1)) {
      m.update(List.of(RuleFileParser.parse("f.yml", file(chain(5000)))));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (sent.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(sent).as("the alert after the chain was sent").isNotEmpty();
      assertThat(sent.get(0).labels().get("alertname")).isEqualTo("After");
      List<RuleStatus> rules = m.status().get(0).rules();
      assertThat(rules.get(0).health()).as(rules.get(0).lastError()).isEqualTo("ok");
      assertThat(rules.get(2).health()).isEqualTo("ok");
    }
  }

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(
            "stack overflow",
            (Supplier<Throwable>) StackOverflowError::new,
            "evaluation exhausted the thread's stack (expression nested too deeply)"),
        Arguments.of(
            "query error",
            (Supplier<Throwable>) () -> new QueryException("many-to-many matching not allowed"),
            "many-to-many matching not allowed"),
        Arguments.of(
            "error without a message",
            (Supplier<Throwable>) () -> new AssertionError(),
            "java.lang.AssertionError"),
        Arguments.of(
            "exception without a message",
            (Supplier<Throwable>) () -> new NullPointerException(),
            "java.lang.NullPointerException"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void theFirstRuleFailsAloneAndIsLoggedOncePerChange(
      String name, Supplier<Throwable> failure, String lastError) {
    MemoryStorage s = new MemoryStorage();
    List<Notification> sent = new CopyOnWriteArrayList<>();
    String failing = "vector(2)";
    boolean[] fail = {true};
    Engine engine = new Engine(EngineOptions.DEFAULTS);
    // The seam rules query through, failing for the first rule as an engine or backend might.
    QueryFunction q =
        (expr, t) -> {
          if (fail[0] && Printer.print(expr).equals(failing)) {
            sneakyThrow(failure.get());
          }
          return QueryFunction.samples(engine.instantQuery(s, expr, t));
        };
    RuleGroup g =
        RuleGroupTest.group(file(failing), RuleManagerOptions.defaults(q, s, s, sent::addAll));
    Logger logger = (Logger) LoggerFactory.getLogger(RuleGroup.class);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    logger.addAppender(logs);
    try {
      g.eval(60_000);
      g.eval(61_000);
      List<RuleStatus> rules = g.status().rules();
      assertThat(rules.get(0).health()).isEqualTo("err");
      assertThat(rules.get(0).lastError()).isEqualTo(lastError);
      assertThat(rules.get(1).health()).isEqualTo("ok");
      assertThat(rules.get(1).state()).isEqualTo("firing");
      assertThat(sent).extracting(n -> n.labels().get("alertname")).contains("After");
      assertThat(rules.get(2).health()).isEqualTo("ok");
      Vector last = (Vector) engine.instantQuery(s, PromqlParser.parse("last"), 61_000).value();
      assertThat(last.samples()).extracting(Sample::value).containsExactly(7.0);
      assertThat(warnings(logs)).as("logged once for two failed evaluations").hasSize(1);
      assertThat(warnings(logs).get(0)).contains("rule=first").contains(lastError);

      fail[0] = false;
      g.eval(62_000);
      assertThat(g.status().rules().get(0).health()).isEqualTo("ok");
      assertThat(logs.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .contains("Rule evaluates again: group=g rule=first");
    } finally {
      logger.detachAppender(logs);
    }
  }

  private static List<String> warnings(ListAppender<ILoggingEvent> logs) {
    return logs.list.stream()
        .filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
    throw (T) t;
  }
}
