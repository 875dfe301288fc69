package dev.infermon.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.Nesting;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deep expressions parse, print and evaluate whatever stack the caller has: every row runs on a
 * thread with a 256 KiB stack. The shapes and sizes are those the real Prometheus 2.42 answers
 * (docs/promql-compatibility.md has its figures beside infermon's).
 */
class DeepExpressionsTest {
  private static final long SMALL_STACK = 256 * 1024;
  private static final long S = 1000;

  private final MemoryStorage storage = new MemoryStorage();
  private final Engine engine = new Engine(EngineOptions.DEFAULTS);

  @BeforeEach
  void load() {
    Appender app = storage.appender();
    for (int i = 0; i <= 120; i++) {
      app.append(Labels.of("__name__", "x", "job", "a"), i * 15 * S, 2);
    }
    app.commit();
  }

  record Row(String shape, int terms, String query, double value) {
    @Override
    public String toString() {
      return terms + " × " + shape;
    }
  }

  static Stream<Row> rows() {
    Stream.Builder<Row> b = Stream.builder();
    for (int n : new int[] {1500, 5000, 20000}) {
      b.add(new Row("vector(1) +", n, chain("vector(1)", " + ", n), n));
      b.add(new Row("vector(1) and", n, chain("vector(1)", " and ", n), 1));
      b.add(new Row("vector(1) or", n, chain("vector(1)", " or ", n), 1));
      b.add(new Row("1 +", n, chain("1", " + ", n), n));
      b.add(new Row("x -", n, "x" + " - x".repeat(n - 1), -2.0 * (n - 2)));
      b.add(new Row("1 ^ (right-associative)", n, chain("1", " ^ ", n), 1));
      b.add(new Row("parentheses", n, "(".repeat(n) + "vector(1)" + ")".repeat(n), 1));
      b.add(new Row("abs()", n, "abs(".repeat(n) + "vector(-1)" + ")".repeat(n), 1));
      b.add(new Row("sum()", n, "sum(".repeat(n) + "x" + ")".repeat(n), 2));
      b.add(new Row("unary -", n, "-".repeat(n) + "vector(1)", n % 2 == 0 ? 1 : -1));
    }
    return b.build();
  }

  private static String chain(String operand, String op, int n) {
    StringBuilder sb = new StringBuilder(operand);
    for (int i = 1; i < n; i++) {
      sb.append(op).append(operand);
    }
    return sb.toString();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void parsesPrintsAndEvaluatesOnASmallStack(Row row) throws Exception {
    onSmallStack(
        () -> {
          Expr e = PromqlParser.parse(row.query());
          String printed = Printer.print(e);
          assertThat(Printer.print(PromqlParser.parse(printed))).isEqualTo(printed);
          assertThat(only(engine.instantQuery(storage, e, 1000 * S))).isEqualTo(row.value());
          Matrix m = (Matrix) engine.rangeQuery(storage, e, 1000 * S, 1600 * S, 60 * S).value();
          assertThat(m.series()).hasSize(1);
          TimeSeries ts = m.series().get(0);
          assertThat(ts.size()).isEqualTo(11);
          for (int i = 0; i < ts.size(); i++) {
            assertThat(ts.valueAt(i)).isEqualTo(row.value());
          }
          return null;
        });
  }

  @Test
  void nestingBeyondTheLimitIsAParseErrorNamingIt() throws Exception {
    String q = "(".repeat(Nesting.MAX_DEPTH) + "1" + ")".repeat(Nesting.MAX_DEPTH);
    onSmallStack(
        () -> {
          assertThatThrownBy(() -> PromqlParser.parse(q))
              .isInstanceOf(ParseException.class)
              .hasMessageContaining("expression nested too deeply (more than 100000 levels)");
          return null;
        });
  }

  private static double only(QueryResult r) {
    Value v = r.value();
    if (v instanceof Scalar) {
      return ((Scalar) v).value();
    }
    Vector vec = (Vector) v;
    assertThat(vec.samples()).hasSize(1);
    return vec.samples().get(0).value();
  }

  /** Runs {@code body} on a thread with a 256 KiB stack and rethrows what it threw. */
  static void onSmallStack(Callable<Void> body) throws Exception {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                body.call();
              } catch (Throwable e) {
                failure.set(e);
              }
            },
            "small-stack",
            SMALL_STACK);
    t.start();
    t.join();
    Throwable f = failure.get();
    if (f instanceof Exception) {
      throw (Exception) f;
    }
    if (f instanceof Error) {
      throw (Error) f;
    }
  }
}
