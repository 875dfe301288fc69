package dev.infermon.rules.unittest;

import dev.infermon.config.value.PromDuration;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.promqltest.SeriesDescription;
import dev.infermon.promql.value.Sample;
import dev.infermon.rules.AlertNotifier;
import dev.infermon.rules.AlertSnapshot;
import dev.infermon.rules.EngineQueryFunction;
import dev.infermon.rules.RuleGroup;
import dev.infermon.rules.RuleManager;
import dev.infermon.rules.RuleManagerOptions;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleFileException;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Storage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Runs promtool's rule unit tests ({@code promtool test rules}): loads the input series into a
 * fresh storage per test group, evaluates every group from 0 to the latest {@code eval_time} at
 * {@code evaluation_interval}, compares firing alerts at each {@code eval_time} and the results of
 * {@code promql_expr_test} afterwards. Output and exit codes are promtool's.
 *
 * <p>Not thread-safe; one run at a time.
 */
public final class RuleUnitTester {
  private final Supplier<Storage> storages;
  private final PrintWriter out;
  private final PrintWriter err;

  /**
   * @param storages makes an empty storage for each test group (closed after it)
   */
  public RuleUnitTester(Supplier<Storage> storages, PrintWriter out, PrintWriter err) {
    this.storages = storages;
    this.out = out;
    this.err = err;
  }

  /** Runs the files; 0 when all pass, 1 otherwise. */
  public int run(List<Path> files) {
    boolean failed = false;
    for (Path f : files) {
      out.println("Unit Testing:  " + f);
      List<String> errs = runFile(f);
      if (errs.isEmpty()) {
        out.println("  SUCCESS");
      } else {
        failed = true;
        err.println("  FAILED:");
        for (String e : errs) {
          err.println(e);
          out.println();
        }
      }
      out.println();
    }
    out.flush();
    err.flush();
    return failed ? 1 : 0;
  }

  /** The failures of one file, empty when it passes. */
  public List<String> runFile(Path file) {
    TestFile tf;
    try {
      tf = TestFile.parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return List.of(file + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      return List.of(e.getMessage());
    }
    Map<String, Integer> order = new HashMap<>();
    for (int i = 0; i < tf.groupEvalOrder().size(); i++) {
      if (order.putIfAbsent(tf.groupEvalOrder().get(i), i) != null) {
        return List.of("group name repeated in evaluation order: " + tf.groupEvalOrder().get(i));
      }
    }
    List<Path> ruleFiles;
    try {
      ruleFiles = resolve(file.toAbsolutePath().getParent(), tf.ruleFiles());
    } catch (IOException e) {
      return List.of(e.getMessage());
    }
    List<String> errs = new ArrayList<>();
    for (TestFile.TestGroup tg : tf.tests()) {
      errs.addAll(runGroup(tf, tg, ruleFiles, order));
    }
    return errs;
  }

  private List<Path> resolve(Path base, List<String> patterns) throws IOException {
    List<Path> out = new ArrayList<>();
    for (String p : patterns) {
      Path path = base.resolve(p);
      if (!p.contains("*") && !p.contains("?") && !p.contains("[")) {
        out.add(path);
        continue;
      }
      Path dir = path.getParent();
      List<Path> matches = new ArrayList<>();
      if (dir != null && Files.isDirectory(dir)) {
        try (DirectoryStream<Path> ds =
            Files.newDirectoryStream(dir, path.getFileName().toString())) {
          ds.forEach(matches::add);
        }
      }
      if (matches.isEmpty()) {
        err.println("  WARNING: no file match pattern " + path);
      }
      matches.sort(Comparator.naturalOrder());
      out.addAll(matches);
    }
    return out;
  }

  private List<String> runGroup(
      TestFile tf, TestFile.TestGroup tg, List<Path> ruleFiles, Map<String, Integer> order) {
    List<RuleFile> files = new ArrayList<>();
    List<String> errs = new ArrayList<>();
    for (Path p : ruleFiles) {
      try {
        files.add(RuleFileParser.load(p));
      } catch (RuleFileException e) {
        e.errors().forEach(x -> errs.add(x.toString()));
      }
    }
    if (!errs.isEmpty()) {
      return errs;
    }
    for (TestFile.AlertTest at : tg.alertTests()) {
      if (at.alertname().isEmpty()) {
        String in = tg.name().isEmpty() ? "" : " (in TestGroup " + tg.name() + ")";
        return List.of(
            "an item under alert_rule_test misses required attribute alertname at eval_time "
                + PromDuration.format(at.evalTime())
                + in);
      }
    }
    Storage storage = storages.get();
    try {
      String loadErr = load(storage, tg);
      if (loadErr != null) {
        return List.of(loadErr);
      }
      long evalMs = tf.evaluationInterval().toMillis();
      Engine engine =
          new Engine(EngineOptions.DEFAULTS.withDefaultSubqueryStep(tf.evaluationInterval()));
      EngineQueryFunction qf = new EngineQueryFunction(engine, storage);
      RuleManagerOptions opts =
          RuleManagerOptions.defaults(qf, storage, storage, AlertNotifier.NONE)
              .withDefaultInterval(tg.interval())
              .withExternal(Labels.fromMap(tg.externalLabels()), tg.externalUrl())
              .withClock(() -> 0L);
      List<RuleGroup> groups = new ArrayList<>(RuleManager.groups(files, opts, false));
      groups.sort(Comparator.comparingInt(g -> order.getOrDefault(g.name(), 0)));
      groups.forEach(RuleGroup::markRestored);

      long maxt = 0;
      Map<Long, List<TestFile.AlertTest>> alertTests = new TreeMap<>();
      for (TestFile.AlertTest at : tg.alertTests()) {
        long t = at.evalTime().toMillis();
        maxt = Math.max(maxt, t);
        alertTests.computeIfAbsent(t, k -> new ArrayList<>()).add(at);
      }
      for (TestFile.ExprTest et : tg.exprTests()) {
        maxt = Math.max(maxt, et.evalTime().toMillis());
      }
      List<Long> alertTimes = new ArrayList<>(alertTests.keySet());
      int curr = 0;
      for (long ts = 0; ts <= maxt; ts += evalMs) {
        List<String> evalErrs = new ArrayList<>();
        for (RuleGroup g : groups) {
          g.eval(ts);
          for (Map.Entry<String, String> e : g.lastErrors()) {
            evalErrs.add(
                "    rule: " + e.getKey() + ", time: " + fmt(ts) + ", err: " + e.getValue());
          }
        }
        errs.addAll(evalErrs);
        if (!evalErrs.isEmpty()) {
          return errs;
        }
        while (curr < alertTimes.size()
            && ts <= alertTimes.get(curr)
            && alertTimes.get(curr) < ts + evalMs) {
          long t = alertTimes.get(curr);
          for (TestFile.AlertTest at : alertTests.get(t)) {
            String e = checkAlerts(tg, at, groups);
            if (e != null) {
              errs.add(e);
            }
          }
          curr++;
        }
      }
      for (TestFile.ExprTest et : tg.exprTests()) {
        String e = checkExpr(et, qf);
        if (e != null) {
          errs.add(e);
        }
      }
      return errs;
    } finally {
      storage.close();
    }
  }

  private static String load(Storage storage, TestFile.TestGroup tg) {
    Appender app = storage.appender();
    long step = tg.interval().toMillis();
    Map<Labels, SeriesDescription> defs = new java.util.LinkedHashMap<>();
    for (TestFile.InputSeries s : tg.inputSeries()) {
      try {
        // promtool writes each input series as a line of a promqltest load command.
        SeriesDescription d = SeriesDescription.parse(s.series() + " " + s.values());
        if (d.hasHistogram()) {
          throw new IllegalArgumentException("native histogram values are not supported");
        }
        defs.put(d.labels(), d);
      } catch (RuntimeException e) {
        return "    series: " + s.series() + ", values: " + s.values() + ", err: " + e.getMessage();
      }
    }
    for (SeriesDescription d : defs.values()) {
      for (int i = 0; i < d.size(); i++) {
        if (!d.isOmitted(i)) {
          app.append(0, d.labels(), i * step, d.value(i));
        }
      }
    }
    app.commit();
    return null;
  }

  private static String checkAlerts(
      TestFile.TestGroup tg, TestFile.AlertTest at, List<RuleGroup> groups) {
    List<Labels[]> got = new ArrayList<>();
    for (RuleGroup g : groups) {
      for (AlertSnapshot a : g.firingAlerts(at.alertname())) {
        got.add(new Labels[] {a.labels(), a.annotations()});
      }
    }
    List<Labels[]> exp = new ArrayList<>();
    for (TestFile.ExpAlert ea : at.expAlerts()) {
      Labels l = Labels.fromMap(ea.labels()).toBuilder().set("alertname", at.alertname()).build();
      exp.add(new Labels[] {l, Labels.fromMap(ea.annotations())});
    }
    Comparator<Labels[]> cmp =
        (x, y) -> {
          int c = x[0].compareTo(y[0]);
          return c != 0 ? c : x[1].compareTo(y[1]);
        };
    got.sort(cmp);
    exp.sort(cmp);
    boolean same = got.size() == exp.size();
    for (int i = 0; same && i < got.size(); i++) {
      same = got.get(i)[0].equals(exp.get(i)[0]) && got.get(i)[1].equals(exp.get(i)[1]);
    }
    if (same) {
      return null;
    }
    String name = tg.name().isEmpty() ? "" : "    name: " + tg.name() + ",\n";
    return name
        + "    alertname: "
        + at.alertname()
        + ", time: "
        + PromDuration.format(at.evalTime())
        + ", \n        exp:"
        + indent(alertsString(exp), "            ")
        + ", \n        got:"
        + indent(alertsString(got), "            ");
  }

  private static String alertsString(List<Labels[]> la) {
    if (la.isEmpty()) {
      return "[]";
    }
    StringBuilder sb = new StringBuilder("[\n0:" + indent("\n" + one(la.get(0)), "  "));
    for (int i = 1; i < la.size(); i++) {
      sb.append(",\n").append(i).append(':').append(indent("\n" + one(la.get(i)), "  "));
    }
    return sb.append("\n]").toString();
  }

  private static String one(Labels[] l) {
    return "Labels:" + goLabels(l[0]) + "\nAnnotations:" + goLabels(l[1]);
  }

  private static String indent(String lines, String indent) {
    String[] parts = lines.split("\n", -1);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        sb.append(indent);
      }
      sb.append(parts[i]);
      if (i != parts.length - 1) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static String checkExpr(TestFile.ExprTest et, EngineQueryFunction qf) {
    String head = "    expr: " + quote(et.expr()) + ", time: " + PromDuration.format(et.evalTime());
    List<Sample> got;
    try {
      got = qf.query(PromqlParser.parse(et.expr()), et.evalTime().toMillis());
    } catch (RuntimeException e) {
      return head + ", err: " + e.getMessage();
    }
    List<Map.Entry<Labels, Double>> exp = new ArrayList<>();
    for (TestFile.ExpSample s : et.expSamples()) {
      try {
        exp.add(Map.entry(SeriesDescription.parseMetric(s.labels()), s.value()));
      } catch (RuntimeException e) {
        return head + ", err: labels " + quote(s.labels()) + ": " + e.getMessage();
      }
    }
    List<Map.Entry<Labels, Double>> gotList = new ArrayList<>();
    for (Sample s : got) {
      gotList.add(Map.entry(s.labels(), s.value()));
    }
    Comparator<Map.Entry<Labels, Double>> cmp = Map.Entry.comparingByKey();
    exp.sort(cmp);
    gotList.sort(cmp);
    boolean same = exp.size() == gotList.size();
    for (int i = 0; same && i < exp.size(); i++) {
      same =
          exp.get(i).getKey().equals(gotList.get(i).getKey())
              && close(exp.get(i).getValue(), gotList.get(i).getValue());
    }
    if (same) {
      return null;
    }
    return head + ",\n        exp: " + samples(exp) + "\n        got: " + samples(gotList);
  }

  /** Exact, or within 1e-12 relative: our float sums may differ from Go's in the last bit. */
  private static boolean close(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.isNaN(a) && Double.isNaN(b);
    }
    return a == b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  }

  private static String samples(List<Map.Entry<Labels, Double>> ss) {
    if (ss.isEmpty()) {
      return "nil";
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<Labels, Double> s : ss) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(goLabels(s.getKey())).append(' ').append(goFloatE(s.getValue()));
    }
    return sb.toString();
  }

  /** Go's {@code labels.Labels.String()}: every label in braces, {@code __name__} included. */
  static String goLabels(Labels l) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < l.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(l.name(i)).append('=').append(quote(l.value(i)));
    }
    return sb.append('}').toString();
  }

  /** {@code strconv.FormatFloat(v, 'E', -1, 64)}. */
  static String goFloatE(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return "0E+00";
    }
    java.math.BigDecimal d =
        new java.math.BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
    String digits = d.unscaledValue().toString();
    int exp = digits.length() - d.scale() - 1;
    StringBuilder sb = new StringBuilder(v < 0 ? "-" : "");
    sb.append(digits.charAt(0));
    if (digits.length() > 1) {
      sb.append('.').append(digits, 1, digits.length());
    }
    sb.append('E').append(exp < 0 ? '-' : '+');
    if (Math.abs(exp) < 10) {
      sb.append('0');
    }
    return sb.append(Math.abs(exp)).toString();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  private static String fmt(long ms) {
    return PromDuration.format(Duration.ofMillis(ms));
  }
}
