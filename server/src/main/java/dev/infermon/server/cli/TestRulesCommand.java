package dev.infermon.server.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.infermon.rules.unittest.RuleUnitTester;
import dev.infermon.storage.Storage;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code infermon test rules FILE...}: runs rule unit tests in promtool's format ({@code
 * rule_files}, {@code evaluation_interval}, {@code group_eval_order}, {@code tests} with {@code
 * input_series}, {@code alert_rule_test}, {@code promql_expr_test}), printing promtool's report.
 * Each test group gets a fresh embedded TSDB in a temporary directory. Exit status 0 when all pass,
 * 1 otherwise.
 */
@Command(
    name = "rules",
    mixinStandardHelpOptions = true,
    description = {
      "Run rule unit tests (promtool's test file format), as promtool test rules.",
      "Exit status: 0 when all tests pass, 1 otherwise."
    })
public final class TestRulesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Unit-test files.")
  List<Path> files;

  @Override
  public Integer call() throws IOException {
    // The per-test databases would log their opening on stdout, between promtool's lines.
    Logger tsdbLog = (Logger) LoggerFactory.getLogger("dev.infermon.tsdb");
    Level previous = tsdbLog.getLevel();
    tsdbLog.setLevel(Level.WARN);
    try {
      return runTests();
    } finally {
      tsdbLog.setLevel(previous);
    }
  }

  private int runTests() throws IOException {
    Path tmp = Files.createTempDirectory("infermon-test-rules");
    int[] n = {0};
    try {
      return new RuleUnitTester(
              () -> open(tmp.resolve("db" + n[0]++)),
              spec.commandLine().getOut(),
              spec.commandLine().getErr())
          .run(files);
    } finally {
      deleteTree(tmp);
    }
  }

  /** A TSDB whose head takes the whole test (tests start at 1970 and span hours at most). */
  private static Storage open(Path dir) {
    try {
      return Tsdb.open(
          dir,
          TsdbOptions.defaults()
              .withBlockRange(Duration.ofDays(31))
              .withRetentionTime(Duration.ZERO)
              .withCompactionInterval(Duration.ofDays(1)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
