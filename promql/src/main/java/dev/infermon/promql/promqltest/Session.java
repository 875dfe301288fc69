package dev.infermon.promql.promqltest;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.Almost;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.promqltest.EvalCommand.ExpectType;
import dev.infermon.promql.promqltest.EvalCommand.Expectation;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.StringValue;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Storage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Runs one script's commands in order against a fresh storage, an eval at a time, with the harness
 * behaviour of Prometheus's {@code test.go}: relative tolerance 1e-6, and every instant eval also
 * run with {@code @} pinned at other times and as a range query whose middle step must agree.
 *
 * <p>Evals must be run in script order ({@link #run} applies the loads and clears before them). Not
 * thread-safe.
 */
public final class Session {
  static final double EPSILON = 1e-6;
  private static final Pattern QUERY_CONTEXT_FUNCS =
      Pattern.compile("(start|end|range|step)\\(\\)");

  private final List<Command> commands;
  private final Engine engine;
  private final Supplier<Storage> storages;
  private final Map<EvalCommand, String> unsupported = new HashMap<>();
  private Storage storage;
  private int next;

  /**
   * A session over parsed commands.
   *
   * @param options engine options; Prometheus's test engine uses delayed name removal and a 10,000
   *     sample limit, see {@link #prometheusTestOptions()}
   * @param storages makes an empty storage (at the start and on every {@code clear})
   */
  public Session(List<Command> commands, EngineOptions options, Supplier<Storage> storages) {
    this.commands = List.copyOf(commands);
    this.engine = new Engine(options);
    this.storages = storages;
    findUnsupported();
  }

  /** The options of Prometheus's test engine ({@code promqltest.NewTestEngine}). */
  public static EngineOptions prometheusTestOptions() {
    return EngineOptions.DEFAULTS.withMaxSamples(10_000).withDelayedNameRemoval(true);
  }

  /** The evals, in script order. */
  public List<EvalCommand> evals() {
    List<EvalCommand> out = new ArrayList<>();
    for (Command c : commands) {
      if (c instanceof EvalCommand) {
        out.add((EvalCommand) c);
      }
    }
    return out;
  }

  /** Why this runner cannot check an eval (native histograms are out of scope), or null. */
  public String unsupportedReason(EvalCommand cmd) {
    return unsupported.get(cmd);
  }

  /**
   * Applies the loads and clears before {@code cmd}, then runs it.
   *
   * @throws ScriptFailure when the result differs from the expectation
   */
  public void run(EvalCommand cmd) {
    int idx = commands.indexOf(cmd);
    if (idx < 0) {
      throw new IllegalArgumentException("not a command of this session: " + cmd);
    }
    if (storage == null) {
      storage = storages.get();
    }
    for (; next < idx; next++) {
      Command c = commands.get(next);
      if (c instanceof Command.Clear) {
        storage.close();
        storage = storages.get();
      } else if (c instanceof Command.Load) {
        load((Command.Load) c);
      }
    }
    next = idx + 1;
    try {
      if (cmd.isRange()) {
        runRange(cmd);
      } else {
        runInstant(cmd);
      }
    } catch (ScriptFailure f) {
      throw f;
    } catch (RuntimeException e) {
      throw fail(cmd, "unexpected error: " + e, e);
    }
  }

  /** Closes the storage. */
  public void close() {
    if (storage != null) {
      storage.close();
    }
  }

  private void load(Command.Load load) {
    Map<Labels, SeriesDescription> defs = new LinkedHashMap<>();
    for (SeriesDescription s : load.series()) {
      defs.put(s.labels(), s); // a later definition of the same series replaces an earlier one
    }
    Appender app = storage.appender();
    for (SeriesDescription s : defs.values()) {
      for (int i = 0; i < s.size(); i++) {
        if (!s.isOmitted(i)) {
          app.append(s.labels(), i * load.stepMs(), s.value(i));
        }
      }
    }
    app.commit();
  }

  private void findUnsupported() {
    Set<String> histogramNames = new HashSet<>();
    for (Command c : commands) {
      if (c instanceof Command.Clear) {
        histogramNames.clear();
      } else if (c instanceof Command.Load) {
        Command.Load l = (Command.Load) c;
        for (SeriesDescription s : l.series()) {
          String name = s.labels().metricName();
          if (s.hasHistogram()) {
            histogramNames.add(name);
          }
          if (l.withNhcb()) {
            for (String suffix : new String[] {"_bucket", "_count", "_sum"}) {
              if (name.endsWith(suffix)) {
                histogramNames.add(name.substring(0, name.length() - suffix.length()));
              }
            }
          }
        }
      } else if (c instanceof EvalCommand) {
        EvalCommand e = (EvalCommand) c;
        if (e.histogramExpected) {
          unsupported.put(e, "expects native-histogram values");
          continue;
        }
        for (String name : histogramNames) {
          if (mentions(e.expr(), name)) {
            unsupported.put(e, "reads native-histogram samples of " + name);
            break;
          }
        }
      }
    }
  }

  /** Whether the expression names the metric as a whole identifier. */
  static boolean mentions(String expr, String name) {
    int from = 0;
    while (true) {
      int i = expr.indexOf(name, from);
      if (i < 0) {
        return false;
      }
      int after = i + name.length();
      boolean startOk = i == 0 || !isNameChar(expr.charAt(i - 1));
      boolean endOk = after >= expr.length() || !isNameChar(expr.charAt(after));
      if (startOk && endOk) {
        return true;
      }
      from = i + 1;
    }
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == ':';
  }

  private Expr parse(EvalCommand cmd) {
    return PromqlParser.parse(cmd.expr());
  }

  private void runRange(EvalCommand cmd) {
    QueryResult res;
    try {
      Expr e = parse(cmd);
      res = engine.rangeQuery(storage, e, cmd.start, cmd.end, cmd.step);
    } catch (RuntimeException err) {
      if (cmd.isFail()) {
        checkExpectedFailure(cmd, err);
        return;
      }
      throw fail(cmd, "error evaluating range query: " + err.getMessage(), err);
    }
    if (cmd.isFail()) {
      throw fail(cmd, "expected error evaluating query but got none");
    }
    checkAnnotations(cmd, res);
    compare(cmd, res.value(), "");
  }

  private void runInstant(EvalCommand cmd) {
    Expr original;
    try {
      original = parse(cmd);
    } catch (RuntimeException err) {
      if (cmd.isFail()) {
        checkExpectedFailure(cmd, err);
        return;
      }
      throw fail(cmd, "parse error: " + err.getMessage(), err);
    }
    long evalTime = cmd.rangeVectorResult ? cmd.rangeVectorEnd : cmd.start;
    List<Expr> exprs = new ArrayList<>();
    List<Long> times = new ArrayList<>();
    exprs.add(original);
    times.add(evalTime);
    Expr pinned = AtInjector.inject(original, evalTime);
    if (pinned != null) {
      long[] extra =
          evalTime == 0
              ? new long[] {-1000, 0, 1000}
              : new long[] {-10 * evalTime, 0, evalTime / 5, evalTime, 10 * evalTime};
      for (long t : extra) {
        exprs.add(pinned);
        times.add(t);
      }
    }
    for (int i = 0; i < exprs.size(); i++) {
      String variant = i == 0 ? "" : " (with @ " + evalTime + " evaluated at " + times.get(i) + ")";
      runInstantVariant(cmd, exprs.get(i), times.get(i), variant);
    }
  }

  private void runInstantVariant(EvalCommand cmd, Expr expr, long time, String variant) {
    QueryResult res;
    try {
      res = engine.instantQuery(storage, expr, time);
    } catch (RuntimeException err) {
      if (cmd.isFail()) {
        checkExpectedFailure(cmd, err);
        return;
      }
      throw fail(cmd, "error evaluating query" + variant + ": " + err.getMessage(), err);
    }
    if (cmd.isFail()) {
      throw fail(cmd, "expected error evaluating query" + variant + " but got none");
    }
    checkAnnotations(cmd, res);
    compare(cmd, res.value(), variant);
    if (cmd.excludeFromRangeQuery || QUERY_CONTEXT_FUNCS.matcher(cmd.expr()).find()) {
      return;
    }
    QueryResult range;
    try {
      range = engine.rangeQuery(storage, expr, time - 60_000, time + 60_000, 60_000);
    } catch (RuntimeException err) {
      throw fail(cmd, "error evaluating query" + variant + " in range mode: " + err, err);
    }
    if (cmd.isOrdered()) {
      return; // range results are ordered by labels
    }
    List<Sample> vec = new ArrayList<>();
    for (TimeSeries s : ((Matrix) range.value()).series()) {
      for (int i = 0; i < s.size(); i++) {
        if (s.timestampAt(i) == time) {
          vec.add(new Sample(s.labels(), time, s.valueAt(i)));
          break;
        }
      }
    }
    Value asInstant;
    if (res.value() instanceof Scalar) {
      if (vec.isEmpty()) {
        throw fail(cmd, "range mode" + variant + " returned no point for the scalar");
      }
      asInstant = new Scalar(time, vec.get(0).value());
    } else {
      asInstant = new Vector(vec);
    }
    compare(cmd, asInstant, variant + " range mode");
  }

  private void checkExpectedFailure(EvalCommand cmd, RuntimeException err) {
    String msg = err.getMessage();
    if (cmd.expectedFailMessage != null && !cmd.expectedFailMessage.equals(msg)) {
      throw fail(cmd, "expected error \"" + cmd.expectedFailMessage + "\" but got: " + msg, err);
    }
    if (cmd.expectedFailRegexp != null && !cmd.expectedFailRegexp.matcher(msg).find()) {
      throw fail(
          cmd, "expected error matching " + cmd.expectedFailRegexp + " but got: " + msg, err);
    }
    List<Expectation> f = cmd.expects(ExpectType.FAIL);
    if (!f.isEmpty() && !f.get(0).matches(msg)) {
      throw fail(cmd, "expected error matching \"" + f.get(0) + "\" but got: " + msg, err);
    }
  }

  private void checkAnnotations(EvalCommand cmd, QueryResult res) {
    List<String> warnings = res.annotations().warnings();
    List<String> infos = res.annotations().infos();
    if (cmd.warn && warnings.isEmpty()) {
      throw fail(cmd, "expected warnings but got none");
    }
    if (cmd.info && infos.isEmpty()) {
      throw fail(cmd, "expected info annotations but got none");
    }
    validate(cmd, cmd.expects(ExpectType.WARN), warnings, "warn", res);
    validate(cmd, cmd.expects(ExpectType.INFO), infos, "info", res);
    if (!cmd.expects(ExpectType.NO_WARN).isEmpty() && !warnings.isEmpty()) {
      throw fail(cmd, "unexpected warning annotations: " + warnings);
    }
    if (!cmd.expects(ExpectType.NO_INFO).isEmpty() && !infos.isEmpty()) {
      throw fail(cmd, "unexpected info annotations: " + infos);
    }
  }

  private void validate(
      EvalCommand cmd,
      List<Expectation> expected,
      List<String> actual,
      String kind,
      QueryResult r) {
    if (expected.isEmpty()) {
      return;
    }
    if (actual.isEmpty()) {
      throw fail(cmd, "expected " + kind + " annotations but none were found");
    }
    for (Expectation e : expected) {
      if (actual.stream().noneMatch(a -> matchesAnnotation(e, a))) {
        throw fail(
            cmd,
            "expected "
                + kind
                + " annotation matching \""
                + e
                + "\" but found: "
                + r.annotations());
      }
    }
    for (String a : actual) {
      if (expected.stream().noneMatch(e -> matchesAnnotation(e, a))) {
        throw fail(cmd, "unexpected " + kind + " annotation \"" + a + "\"");
      }
    }
  }

  /** Annotations carry no source position here; a pattern that ends with one is cut before it. */
  private static boolean matchesAnnotation(Expectation e, String actual) {
    if (e.matches(actual)) {
      return true;
    }
    if (e.regex() == null) {
      return false;
    }
    String cut = e.regex().pattern().replaceFirst(" ?\\\\\\([^()]*\\\\\\)$", "");
    return Pattern.compile(cut).matcher(actual).find();
  }

  private void compare(EvalCommand cmd, Value result, String variant) {
    if (result instanceof Matrix) {
      compareMatrix(cmd, (Matrix) result, variant);
    } else if (result instanceof Vector) {
      compareVector(cmd, (Vector) result, variant);
    } else if (result instanceof Scalar) {
      if (!cmd.expectScalar) {
        throw fail(cmd, "expected vector or matrix result" + variant + ", but got " + result);
      }
      double v = ((Scalar) result).value();
      if (!Almost.equal(cmd.scalar, v, EPSILON)) {
        throw fail(cmd, "expected scalar " + cmd.scalar + " but got " + v + variant);
      }
    } else {
      String s = ((StringValue) result).value();
      if (!s.equals(cmd.expectedString)) {
        throw fail(cmd, "expected string \"" + cmd.expectedString + "\" but got \"" + s + "\"");
      }
    }
  }

  private void compareVector(EvalCommand cmd, Vector v, String variant) {
    if (cmd.expectScalar) {
      throw fail(cmd, "expected scalar result" + variant + ", but got vector " + v.samples());
    }
    Set<Labels> seen = new HashSet<>();
    List<Sample> samples = v.samples();
    for (int pos = 0; pos < samples.size(); pos++) {
      Sample s = samples.get(pos);
      EvalCommand.Expected exp = cmd.expected.get(s.labels());
      if (exp == null) {
        throw fail(
            cmd,
            "unexpected metric "
                + s.labels()
                + " in result"
                + variant
                + ", has value "
                + s.value());
      }
      if (cmd.isOrdered() && exp.pos() != pos + 1) {
        throw fail(
            cmd,
            "expected metric "
                + s.labels()
                + " at position "
                + exp.pos()
                + " but was at "
                + (pos + 1)
                + variant);
      }
      double want = exp.series().value(0);
      if (!Almost.equal(want, s.value(), EPSILON)) {
        throw fail(
            cmd, "expected " + want + " for " + s.labels() + " but got " + s.value() + variant);
      }
      seen.add(s.labels());
    }
    for (Labels l : cmd.expected.keySet()) {
      if (!seen.contains(l)) {
        throw fail(cmd, "expected metric " + l + " not found" + variant);
      }
    }
  }

  private void compareMatrix(EvalCommand cmd, Matrix m, String variant) {
    if (cmd.isOrdered()) {
      throw fail(cmd, "expected ordered result, but query returned a matrix");
    }
    if (cmd.expectScalar) {
      throw fail(cmd, "expected scalar result, but got matrix");
    }
    long start = cmd.rangeVectorResult ? cmd.rangeVectorStart : cmd.start;
    long end = cmd.rangeVectorResult ? cmd.rangeVectorEnd : cmd.end;
    long step = cmd.rangeVectorResult ? cmd.rangeVectorStep : cmd.step;
    List<TimeSeries> series = m.series();
    for (int i = 1; i < series.size(); i++) {
      if (series.get(i - 1).labels().compareTo(series.get(i).labels()) > 0) {
        throw fail(cmd, "matrix results should always be sorted by labels");
      }
    }
    Set<Labels> seen = new HashSet<>();
    for (TimeSeries s : series) {
      EvalCommand.Expected exp = cmd.expected.get(s.labels());
      if (exp == null) {
        throw fail(cmd, "unexpected metric " + s.labels() + " in result, has " + s + variant);
      }
      seen.add(s.labels());
      SeriesDescription d = exp.series();
      List<long[]> wantT = new ArrayList<>();
      List<Double> wantV = new ArrayList<>();
      for (int i = 0; i < d.size(); i++) {
        long ts = start + i * step;
        if (ts > end) {
          throw fail(cmd, "expected " + d.size() + " points for " + s.labels() + ", too many");
        }
        if (!d.isOmitted(i)) {
          wantT.add(new long[] {ts});
          wantV.add(d.value(i));
        }
      }
      if (wantT.size() != s.size()) {
        throw fail(
            cmd,
            "expected "
                + wantT.size()
                + " float points for "
                + s.labels()
                + ", but got "
                + s
                + variant);
      }
      for (int i = 0; i < s.size(); i++) {
        if (wantT.get(i)[0] != s.timestampAt(i)) {
          throw fail(
              cmd,
              "expected point "
                  + i
                  + " of "
                  + s.labels()
                  + " at "
                  + wantT.get(i)[0]
                  + " but it was at "
                  + s.timestampAt(i)
                  + " (result "
                  + s
                  + ")"
                  + variant);
        }
        if (!Almost.equal(wantV.get(i), s.valueAt(i), EPSILON)) {
          throw fail(
              cmd,
              "expected "
                  + wantV.get(i)
                  + " at t="
                  + s.timestampAt(i)
                  + " for "
                  + s.labels()
                  + " but got "
                  + s.valueAt(i)
                  + variant);
        }
      }
    }
    for (Labels l : cmd.expected.keySet()) {
      if (!seen.contains(l)) {
        throw fail(cmd, "expected metric " + l + " not found" + variant);
      }
    }
  }

  private static ScriptFailure fail(EvalCommand cmd, String message) {
    return new ScriptFailure(cmd.displayName() + ": " + message);
  }

  private static ScriptFailure fail(EvalCommand cmd, String message, Throwable cause) {
    return new ScriptFailure(cmd.displayName() + ": " + message, cause);
  }
}
