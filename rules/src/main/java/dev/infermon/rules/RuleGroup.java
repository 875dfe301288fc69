package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.promql.value.Sample;
import dev.infermon.rules.rulefmt.GroupSpec;
import dev.infermon.rules.rulefmt.RuleSpec;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.StorageException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A group of rules evaluated in order at one interval (Prometheus's {@code rules/group.go}). Each
 * rule's output is committed before the next rule runs, so later rules see it; series a rule stops
 * producing get a staleness marker; alerts due for sending go to the {@link AlertNotifier}.
 *
 * <p>Threading: {@link #eval} runs on one thread at a time (the manager's scheduler or a test);
 * {@link #status()} may be called from any thread.
 */
public final class RuleGroup {
  private static final Logger log = LoggerFactory.getLogger(RuleGroup.class);

  private final String name;
  private final String file;
  private final long intervalMs;
  private final long queryOffsetMs;
  private final int limit;
  private final List<Rule> rules;
  private final RuleManagerOptions opts;
  private final AnnotatorCalls annotations;
  private final List<Set<Labels>> seriesInPreviousEval;
  private List<Labels> staleSeries = new ArrayList<>();
  private volatile long lastEvaluationMs;
  private volatile long evaluationNanos;

  RuleGroup(GroupSpec spec, String file, RuleManagerOptions opts, boolean shouldRestore) {
    this.name = spec.name();
    this.file = file;
    this.intervalMs = spec.interval().orElse(opts.defaultInterval()).toMillis();
    this.queryOffsetMs = spec.queryOffset().orElse(opts.defaultQueryOffset()).toMillis();
    this.limit = spec.limit();
    this.opts = opts;
    this.annotations =
        new AnnotatorCalls(opts.annotator(), opts.annotatorTimeout().toMillis(), name);
    List<Rule> rs = new ArrayList<>();
    for (RuleSpec r : spec.rules()) {
      Map<String, String> merged = new java.util.LinkedHashMap<>(spec.labels());
      merged.putAll(r.labels());
      Labels ruleLabels = Labels.fromMap(merged);
      if (r.alert()) {
        rs.add(new AlertingRule(r, ruleLabels, !shouldRestore));
      } else {
        rs.add(new RecordingRule(r.name(), r.expr(), ruleLabels));
      }
    }
    this.rules = List.copyOf(rs);
    this.seriesInPreviousEval = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      seriesInPreviousEval.add(new HashSet<>());
    }
  }

  public String name() {
    return name;
  }

  public String file() {
    return file;
  }

  public long intervalMs() {
    return intervalMs;
  }

  /** {@code file;name}: groups are unique by file and name. */
  public String key() {
    return file + ";" + name;
  }

  /**
   * The evaluation slot at or before {@code nowNanos} (Prometheus's {@code EvalTimestamp}): aligned
   * to the interval plus a stable per-group offset, the XXH64 hash of the group's name and file
   * modulo the interval, so groups spread over the interval the same way in every restart.
   */
  public long evalTimestampNanos(long nowNanos) {
    long intervalNanos = intervalMs * 1_000_000L;
    long offset = Long.remainderUnsigned(hash(), intervalNanos);
    long adjNow = nowNanos - offset;
    long base = adjNow - Math.floorMod(adjNow, intervalNanos);
    return base + offset;
  }

  private long hash() {
    // labels.Labels{file, name}.Hash(): each name and value followed by 0xff, in label order.
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    for (String part : new String[] {"file", file, "name", name}) {
      b.writeBytes(part.getBytes(StandardCharsets.UTF_8));
      b.write(0xff);
    }
    return XxHash64.hash(b.toByteArray());
  }

  /**
   * Evaluates every rule in order at {@code ts} (ms), writing results and sending alerts. A rule
   * that fails, whatever it throws short of the JVM failing (a stack overflow included), fails
   * alone: its health is {@code err} with the reason, and the rules after it still run.
   */
  public void eval(long ts) {
    long groupStart = System.nanoTime();
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      long start = System.nanoTime();
      long wallStart = opts.clock().getAsLong();
      try {
        evalRule(i, rule, ts);
      } catch (Throwable t) {
        if (isFatal(t)) {
          throw t;
        }
        failed(rule, "evaluating rule failed", t);
      } finally {
        rule.evaluated(wallStart, System.nanoTime() - start);
      }
    }
    cleanupStaleSeries(ts);
    evaluationNanos = System.nanoTime() - groupStart;
    lastEvaluationMs = opts.clock().getAsLong();
  }

  /** The JVM itself failing (out of memory, an internal error): nothing a group can go on from. */
  static boolean isFatal(Throwable t) {
    return t instanceof VirtualMachineError && !(t instanceof StackOverflowError);
  }

  /** Records a rule's failure, logging it when the error is not the one of its last evaluation. */
  private void failed(Rule rule, String what, Throwable t) {
    String error = errorText(t);
    if (rule.failed(error)) {
      log.warn("{}: group={} rule={} err={}", what, name, rule.name, error);
    }
  }

  /** The text of a rule's error: the exception's message, or what it is when it has none. */
  static String errorText(Throwable t) {
    if (t instanceof StackOverflowError) {
      return "evaluation exhausted the thread's stack (expression nested too deeply)";
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }

  private void evalRule(int i, Rule rule, long ts) {
    List<Sample> vector;
    try {
      vector = rule.eval(ts, queryOffsetMs, opts.evalContext(), limit);
    } catch (RuntimeException e) {
      failed(rule, "evaluating rule failed", e);
      return;
    }
    if (rule instanceof AlertingRule) {
      AlertingRule ar = (AlertingRule) rule;
      List<AlertAnnotator.Subject> subjects = ar.subjects(ts);
      ar.annotated(subjects, annotations.annotate(subjects));
      send(ar, ts);
    }
    String appendError = write(i, vector, ts);
    if (appendError != null) {
      rule.failed(appendError);
    } else if (rule.ok()) {
      log.info("Rule evaluates again: group={} rule={}", name, rule.name);
    }
  }

  /** Writes a rule's output and staleness markers; returns the storage's error, if any. */
  private String write(int i, List<Sample> vector, long ts) {
    String error = null;
    Appender app = opts.appendable().appender();
    Set<Labels> returned = new HashSet<>();
    for (Sample s : vector) {
      try {
        app.append(0, s.labels(), s.timestampMs(), s.value());
        returned.add(s.labels());
      } catch (StorageException e) {
        error = e.getMessage();
        if (!(e instanceof OutOfOrderSampleException
            || e instanceof DuplicateSampleException
            || e instanceof OutOfBoundsException)) {
          log.warn("Rule evaluation result discarded: {} {}", s.labels(), e.getMessage());
        }
      }
    }
    for (Labels prev : seriesInPreviousEval.get(i)) {
      if (!returned.contains(prev)) {
        appendStale(app, prev, ts - queryOffsetMs);
      }
    }
    try {
      app.commit();
      seriesInPreviousEval.set(i, returned);
    } catch (StorageException e) {
      error = e.getMessage();
      log.warn("Rule sample appending failed: {}", e.getMessage());
    }
    return error;
  }

  private static void appendStale(Appender app, Labels l, long t) {
    try {
      app.append(0, l, t, StaleNaN.VALUE);
    } catch (OutOfOrderSampleException | DuplicateSampleException | OutOfBoundsException e) {
      // Expected when another rule now writes the series.
    } catch (StorageException e) {
      log.warn("Adding stale sample failed: {} {}", l, e.getMessage());
    }
  }

  private void send(AlertingRule rule, long ts) {
    List<Alert> due = rule.due(ts, opts.resendDelay().toMillis(), intervalMs);
    if (due.isEmpty()) {
      return;
    }
    String url = opts.externalUrl() + graphTableLink(rule.query);
    List<Notification> out = new ArrayList<>(due.size());
    for (Alert a : due) {
      long end = a.resolvedAt != 0 ? a.resolvedAt : a.validUntil;
      out.add(new Notification(a.labels, a.annotations, a.firedAt, end, url));
    }
    try {
      opts.notifier().send(out);
    } catch (RuntimeException e) {
      log.warn("Sending alerts of {} failed: {}", rule.name, e.toString());
    }
  }

  /** Prometheus's {@code strutil.TableLinkForExpression}. */
  static String graphTableLink(String expr) {
    return "/graph?g0.expr="
        + java.net.URLEncoder.encode(expr, StandardCharsets.UTF_8)
            .replace("*", "%2A")
            .replace("%7E", "~")
        + "&g0.tab=1";
  }

  /** Series this group wrote in its last evaluation (for staleness after a reload). */
  List<Labels> lastSeries() {
    List<Labels> out = new ArrayList<>();
    for (Set<Labels> s : seriesInPreviousEval) {
      out.addAll(s);
    }
    return out;
  }

  void addStaleSeries(List<Labels> series) {
    staleSeries.addAll(series);
  }

  private void cleanupStaleSeries(long ts) {
    if (staleSeries.isEmpty()) {
      return;
    }
    Appender app = opts.appendable().appender();
    for (Labels l : staleSeries) {
      appendStale(app, l, ts - queryOffsetMs);
    }
    try {
      app.commit();
      staleSeries = new ArrayList<>();
    } catch (StorageException e) {
      log.warn("Stale sample appending for previous configuration failed: {}", e.getMessage());
    }
  }

  /**
   * Restores the {@code for} state of alerts from {@code ALERTS_FOR_STATE} (Prometheus's {@code
   * RestoreForState}): an alert active before a restart keeps its {@code activeAt}, shifted by the
   * downtime, and fires no sooner than the grace period after {@code ts}. Only series within the
   * outage tolerance count. Rules whose {@code for} is shorter than the grace period skip it.
   */
  public void restoreForState(long ts) {
    long graceMs = opts.forGracePeriod().toMillis();
    long mint = ts - opts.outageTolerance().toMillis();
    Queryable q = opts.queryable();
    try (Querier querier = q.querier()) {
      for (Rule r : rules) {
        if (!(r instanceof AlertingRule)) {
          continue;
        }
        AlertingRule ar = (AlertingRule) r;
        if (ar.holdMs < graceMs) {
          ar.setRestored(true);
          continue;
        }
        Map<Labels, long[]> last = new HashMap<>();
        try {
          List<Matcher> ms = new ArrayList<>();
          ar.forStateSample(null, 0, 0)
              .labels()
              .forEach((n, v) -> ms.add(Matcher.of(MatchType.EQUAL, n, v)));
          SeriesSet set = querier.select(false, mint, ts, ms);
          while (set.next()) {
            SampleIterator it = set.at().iterator();
            long t = 0;
            double v = Double.NaN;
            boolean any = false;
            while (it.next()) {
              t = it.timestamp();
              v = it.value();
              any = true;
            }
            if (any && !StaleNaN.is(v)) {
              last.put(set.at().labels().withoutMetricName(), new long[] {t, (long) v});
            }
          }
        } catch (StorageException e) {
          log.error("Failed to restore 'for' state of {}: {}", ar.name, e.getMessage());
          ar.setRestored(true);
          continue;
        }
        ar.forEachActive(
            a -> {
              long[] tv = last.get(a.labels);
              if (tv == null) {
                return;
              }
              long downAt = Math.floorDiv(tv[0], 1000) * 1000;
              long restoredActiveAt = tv[1] * 1000;
              long timeSpentPending = downAt - restoredActiveAt;
              long remaining = ar.holdMs - timeSpentPending;
              if (remaining <= 0) {
                // It was firing: with its old activeAt the next evaluation fires it again.
              } else if (remaining < graceMs) {
                restoredActiveAt = ts + graceMs - ar.holdMs;
              } else {
                restoredActiveAt += ts - downAt;
              }
              a.activeAt = restoredActiveAt;
            });
        ar.setRestored(true);
      }
    }
  }

  /** Copies alert state and staleness tracking from the group this one replaces. */
  void copyState(RuleGroup from) {
    Map<String, List<Integer>> byIdentity = new HashMap<>();
    for (int i = 0; i < from.rules.size(); i++) {
      byIdentity.computeIfAbsent(from.rules.get(i).identity(), k -> new ArrayList<>()).add(i);
    }
    for (int i = 0; i < rules.size(); i++) {
      List<Integer> idx = byIdentity.get(rules.get(i).identity());
      if (idx == null || idx.isEmpty()) {
        continue;
      }
      int fi = idx.remove(0);
      seriesInPreviousEval.set(i, from.seriesInPreviousEval.get(fi));
      if (rules.get(i) instanceof AlertingRule && from.rules.get(fi) instanceof AlertingRule) {
        ((AlertingRule) rules.get(i)).copyStateFrom((AlertingRule) from.rules.get(fi));
      }
    }
    staleSeries.addAll(from.staleSeries);
    for (List<Integer> left : byIdentity.values()) {
      for (int fi : left) {
        staleSeries.addAll(from.seriesInPreviousEval.get(fi));
      }
    }
    lastEvaluationMs = from.lastEvaluationMs;
    evaluationNanos = from.evaluationNanos;
  }

  /** Firing alerts of the alerting rules named {@code alertName} (promtool's unit tests). */
  public List<AlertSnapshot> firingAlerts(String alertName) {
    List<AlertSnapshot> out = new ArrayList<>();
    for (Rule r : rules) {
      if (r instanceof AlertingRule && r.name.equals(alertName)) {
        for (AlertSnapshot a : ((AlertingRule) r).activeAlerts()) {
          if (a.state() == AlertState.FIRING) {
            out.add(a);
          }
        }
      }
    }
    return out;
  }

  /** Marks every alerting rule restored, so ALERTS is written from the first evaluation. */
  public void markRestored() {
    for (Rule r : rules) {
      if (r instanceof AlertingRule) {
        ((AlertingRule) r).setRestored(true);
      }
    }
  }

  /** Errors of the last evaluation, as {@code rule name → error}, in rule order. */
  public List<Map.Entry<String, String>> lastErrors() {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    for (Rule r : rules) {
      if (!r.lastError().isEmpty()) {
        out.add(Map.entry(r.name, r.lastError()));
      }
    }
    return out;
  }

  /** A snapshot for {@code /api/v1/rules}. */
  public RuleGroupStatus status() {
    List<RuleStatus> rs = new ArrayList<>();
    for (Rule r : rules) {
      rs.add(RuleStatus.of(r));
    }
    return new RuleGroupStatus(
        name, file, intervalMs, limit, rs, evaluationNanos, lastEvaluationMs);
  }
}
