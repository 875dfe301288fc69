package dev.infermon.promql.promqltest;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.testing.MemoryStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/** Turns promqltest scripts into JUnit dynamic tests: one per eval, named {@code file:line}. */
final class ScriptTests {
  private ScriptTests() {}

  static String resource(String path) {
    try (InputStream in = ScriptTests.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A container of one script's evals. Evals run in script order, sharing the script's session; an
   * eval in {@code skips} (by line) or that the runner cannot check is skipped with its reason.
   */
  static DynamicContainer script(
      String file, String text, EngineOptions options, Map<Integer, String> skips) {
    List<Command> commands = ScriptParser.parse(file, text);
    Session session = new Session(commands, options, MemoryStorage::new);
    List<DynamicNode> tests = new ArrayList<>();
    for (EvalCommand eval : session.evals()) {
      tests.add(
          DynamicTest.dynamicTest(
              eval.displayName(),
              () -> {
                String listed = skips.get(eval.line());
                assumeTrue(listed == null, () -> "skipped: " + listed);
                String unsupported = session.unsupportedReason(eval);
                try {
                  session.run(eval);
                } catch (ScriptFailure f) {
                  // Native-histogram evals run anyway; only a failure turns into a skip.
                  assumeTrue(unsupported == null, () -> "skipped: " + unsupported);
                  throw f;
                }
              }));
    }
    return DynamicContainer.dynamicContainer(file, tests);
  }
}
