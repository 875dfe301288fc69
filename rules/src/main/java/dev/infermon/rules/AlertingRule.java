package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.Sample;
import dev.infermon.rules.rulefmt.RuleSpec;
import dev.infermon.rules.template.AlertData;
import dev.infermon.rules.template.QuerySample;
import dev.infermon.rules.template.Template;
import dev.infermon.rules.template.TemplateContext;
import dev.infermon.rules.template.TemplateExecException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an expression's result into alerts and moves them through inactive → pending → firing →
 * resolved, as Prometheus's {@code alerting.go} does: pending until {@code for} has passed, firing
 * until the expression stops returning the series and {@code keep_firing_for} has passed, then
 * resolved and kept (and re-sent) for 15 minutes. Writes {@code ALERTS} and {@code
 * ALERTS_FOR_STATE} once the {@code for} state has been restored.
 *
 * <p>Threading: evaluated by one thread at a time; the alert map is guarded by {@code this}.
 */
final class AlertingRule extends Rule {
  private static final Logger log = LoggerFactory.getLogger(AlertingRule.class);

  static final String ALERTS = "ALERTS";
  static final String ALERTS_FOR_STATE = "ALERTS_FOR_STATE";
  static final long RESOLVED_RETENTION_MS = 15 * 60_000L;

  final long holdMs;
  final long keepFiringForMs;
  final Labels annotationTexts;
  private final Map<String, Template> labelTemplates;
  private final Map<String, Template> annotationTemplates;
  private final Map<Labels, Alert> active = new LinkedHashMap<>();
  private volatile boolean restored;
  private volatile boolean evaluatedOnce;

  AlertingRule(RuleSpec spec, Labels ruleLabels, boolean restored) {
    super(spec.name(), spec.expr(), ruleLabels);
    this.holdMs = spec.forDuration().toMillis();
    this.keepFiringForMs = spec.keepFiringFor().toMillis();
    this.annotationTexts = Labels.fromMap(spec.annotations());
    Map<String, Template> lt = new LinkedHashMap<>(spec.labelTemplates());
    for (String k : ruleLabels.names()) {
      if (!lt.containsKey(k)) {
        lt.put(k, Template.parseAlert(spec.name(), ruleLabels.get(k)));
      }
    }
    this.labelTemplates = lt;
    this.annotationTemplates = spec.annotationTemplates();
    this.restored = restored;
  }

  @Override
  List<Sample> eval(long ts, long queryOffsetMs, EvalContext ctx, int limit) {
    List<Sample> res = ctx.query().query(expr, ts - queryOffsetMs);
    Map<Labels, Alert> alerts = new HashMap<>();
    Map<String, String> external = ctx.externalLabels().toMap();
    for (Sample s : res) {
      AlertData data = new AlertData(s.labels().toMap(), external, ctx.externalUrl(), s.value());
      TemplateContext tctx = templateContext(ctx, ts);
      Labels.Builder lb = s.labels().toBuilder().del(Labels.METRIC_NAME);
      for (Map.Entry<String, Template> e : labelTemplates.entrySet()) {
        lb.set(e.getKey(), expand(e.getValue(), data, tctx));
      }
      lb.set("alertname", name);
      Labels.Builder ab = Labels.builder();
      for (Map.Entry<String, Template> e : annotationTemplates.entrySet()) {
        ab.set(e.getKey(), expand(e.getValue(), data, tctx));
      }
      Labels l = lb.build();
      if (alerts.containsKey(l)) {
        throw new IllegalStateException(
            "vector contains metrics with the same labelset after applying alert labels");
      }
      alerts.put(l, new Alert(l, ab.build(), s.value(), ts));
    }
    List<Sample> vec = new ArrayList<>();
    synchronized (this) {
      for (Map.Entry<Labels, Alert> e : alerts.entrySet()) {
        Alert existing = active.get(e.getKey());
        if (existing != null && existing.state != AlertState.INACTIVE) {
          existing.value = e.getValue().value;
          existing.annotations = e.getValue().annotations;
          continue;
        }
        active.put(e.getKey(), e.getValue());
      }
      int numActivePending = 0;
      for (Iterator<Map.Entry<Labels, Alert>> it = active.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<Labels, Alert> e = it.next();
        Alert a = e.getValue();
        if (!alerts.containsKey(e.getKey())) {
          boolean keepFiring = false;
          if (a.state == AlertState.FIRING && keepFiringForMs > 0) {
            if (a.keepFiringSince == 0) {
              a.keepFiringSince = ts;
            }
            if (ts - a.keepFiringSince < keepFiringForMs) {
              keepFiring = true;
            }
          }
          // Resolved alerts stay (and are re-sent) for a while so that Alertmanager hears of it.
          if (a.state == AlertState.PENDING
              || (a.resolvedAt != 0 && ts - a.resolvedAt > RESOLVED_RETENTION_MS)) {
            it.remove();
          }
          if (a.state != AlertState.INACTIVE && !keepFiring) {
            a.state = AlertState.INACTIVE;
            a.resolvedAt = ts;
          }
          if (!keepFiring) {
            continue;
          }
        } else {
          a.keepFiringSince = 0;
        }
        numActivePending++;
        if (a.state == AlertState.PENDING && ts - a.activeAt >= holdMs) {
          a.state = AlertState.FIRING;
          a.firedAt = ts;
        }
        if (restored) {
          vec.add(alertsSample(a, ts - queryOffsetMs));
          vec.add(forStateSample(a.labels, ts - queryOffsetMs, Math.floorDiv(a.activeAt, 1000)));
        }
      }
      evaluatedOnce = true;
      if (limit > 0 && numActivePending > limit) {
        active.clear();
        throw new IllegalStateException(
            "exceeded limit of " + limit + " with " + numActivePending + " alerts");
      }
    }
    return vec;
  }

  private static String expand(Template t, AlertData data, TemplateContext ctx) {
    if (t.isPlainText()) {
      return t.text();
    }
    try {
      return t.execute(data, ctx);
    } catch (TemplateExecException | IllegalArgumentException e) {
      log.warn("Expanding alert template failed: {}", e.getMessage());
      return "<error expanding template: error executing template "
          + t.name()
          + ": "
          + e.getMessage()
          + ">";
    }
  }

  private static TemplateContext templateContext(EvalContext ctx, long ts) {
    return new TemplateContext() {
      @Override
      public List<QuerySample> query(String promql) {
        List<QuerySample> out = new ArrayList<>();
        for (Sample s : ctx.query().query(PromqlParser.parse(promql), ts)) {
          out.add(new QuerySample(s.labels().toMap(), s.value()));
        }
        return out;
      }

      @Override
      public String externalUrl() {
        return ctx.externalUrl();
      }
    };
  }

  private Sample alertsSample(Alert a, long t) {
    Labels.Builder b = labels.toBuilder();
    a.labels.forEach(b::set);
    b.set(Labels.METRIC_NAME, ALERTS).set("alertname", name).set("alertstate", a.state.label());
    return new Sample(b.build(), t, 1);
  }

  /** ALERTS_FOR_STATE for an alert; with null labels, the series identity of the whole rule. */
  Sample forStateSample(Labels alertLabels, long t, double v) {
    Labels.Builder b = labels.toBuilder();
    if (alertLabels != null) {
      alertLabels.forEach(b::set);
    }
    b.set(Labels.METRIC_NAME, ALERTS_FOR_STATE).set("alertname", name);
    return new Sample(b.build(), t, v);
  }

  /** Alerts due for sending at {@code ts}, stamped as sent. */
  synchronized List<Alert> due(long ts, long resendDelayMs, long intervalMs) {
    List<Alert> out = new ArrayList<>();
    for (Alert a : active.values()) {
      if (a.needsSending(ts, resendDelayMs)) {
        a.lastSentAt = ts;
        a.validUntil = ts + 4 * Math.max(intervalMs, resendDelayMs);
        Alert copy = new Alert(a.labels, a.allAnnotations(), a.value, a.activeAt);
        copy.state = a.state;
        copy.firedAt = a.firedAt;
        copy.resolvedAt = a.resolvedAt;
        copy.validUntil = a.validUntil;
        out.add(copy);
      }
    }
    return out;
  }

  /** The pending and firing alerts of the last evaluation at {@code ts}, for the annotator. */
  synchronized List<AlertAnnotator.Subject> subjects(long ts) {
    List<AlertAnnotator.Subject> out = new ArrayList<>();
    for (Alert a : active.values()) {
      if (a.resolvedAt == 0 && a.state != AlertState.INACTIVE) {
        out.add(new AlertAnnotator.Subject(name, query, a.labels, a.state, a.activeAt, ts));
      }
    }
    return out;
  }

  /** Sets what the annotator added to the alerts of {@code subjects}, in their order. */
  synchronized void annotated(List<AlertAnnotator.Subject> subjects, List<Labels> added) {
    for (int i = 0; i < subjects.size(); i++) {
      Alert a = active.get(subjects.get(i).labels());
      if (a != null) {
        a.added = added.get(i);
      }
    }
  }

  /** Active (pending or firing, not resolved) alerts. */
  synchronized List<AlertSnapshot> activeAlerts() {
    List<AlertSnapshot> out = new ArrayList<>();
    for (Alert a : active.values()) {
      if (a.resolvedAt == 0) {
        out.add(a.snapshot());
      }
    }
    out.sort((x, y) -> x.labels().compareTo(y.labels()));
    return out;
  }

  synchronized AlertState state() {
    if (!evaluatedOnce) {
      return AlertState.UNKNOWN;
    }
    AlertState max = AlertState.INACTIVE;
    for (Alert a : active.values()) {
      if (a.state.compareTo(max) > 0) {
        max = a.state;
      }
    }
    return max;
  }

  boolean restored() {
    return restored;
  }

  void setRestored(boolean r) {
    restored = r;
  }

  /** Applies {@code f} to every alert under the rule's lock (restore). */
  synchronized void forEachActive(java.util.function.Consumer<Alert> f) {
    active.values().forEach(f);
  }

  /** Takes over another rule's alerts (a reloaded group keeps its state). */
  synchronized void copyStateFrom(AlertingRule other) {
    synchronized (other) {
      active.putAll(other.active);
    }
    evaluatedOnce = other.evaluatedOnce;
  }
}
