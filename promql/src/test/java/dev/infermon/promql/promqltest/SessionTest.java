package dev.infermon.promql.promqltest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The runner reports wrong expectations (it can fail) and accepts right ones. */
class SessionTest {
  private static final String LOAD = "load 1m\n  m{a=\"1\"} 0+1x10\n\n";

  private static Session session(String script) {
    return new Session(
        ScriptParser.parse("t.test", script), Session.prometheusTestOptions(), MemoryStorage::new);
  }

  @Test
  void rightExpectationPasses() {
    Session s = session(LOAD + "eval instant at 5m m\n  m{a=\"1\"} 5\n");
    assertThatCode(() -> s.run(s.evals().get(0))).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "eval instant at 5m m\n  m{a=\"1\"} 6\n", // wrong value
        "eval instant at 5m m\n  m{a=\"2\"} 5\n", // wrong labels
        "eval instant at 5m m\n", // missing series
        "eval instant at 5m m\n  expect fail\n", // no error
        "eval instant at 5m rate(m[5m])\n  expect no_info\n  {a=\"1\"} 0.0166666667\n",
        "eval range from 0 to 2m step 1m m\n  m{a=\"1\"} 0 1 3\n"
      })
  void wrongExpectationFailsNamingFileAndLine(String eval) {
    Session s = session(LOAD + eval);
    assertThatThrownBy(() -> s.run(s.evals().get(0)))
        .isInstanceOf(ScriptFailure.class)
        .hasMessageStartingWith("t.test:4 ");
  }

  @Test
  void olderEvalPrefixesAndExpectLinesParse() {
    List<Command> cmds =
        ScriptParser.parse(
            "t.test",
            LOAD
                + "eval_ordered instant at 1m sort(m)\n  m{a=\"1\"} 1\n\n"
                + "eval_fail instant at 1m label_replace(m, \"b\", \"\", \"a\", \"(\")\n\n"
                + "eval instant at 1m \"x\"\n  expect string \"x\"\n");
    assertThat(cmds).hasSize(4);
    Session s = new Session(cmds, Session.prometheusTestOptions(), MemoryStorage::new);
    for (EvalCommand e : s.evals()) {
      assertThatCode(() -> s.run(e)).doesNotThrowAnyException();
    }
  }
}
