package dev.infermon.web.api;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.model.text.GoFloat;
import dev.infermon.web.BuildInfo;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.retrieval.ActiveTarget;
import dev.infermon.web.retrieval.Alert;
import dev.infermon.web.retrieval.DroppedTarget;
import dev.infermon.web.retrieval.Rule;
import dev.infermon.web.retrieval.RuleGroup;
import dev.infermon.web.retrieval.RulesRetriever;
import dev.infermon.web.retrieval.TargetRetriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The status endpoints ({@code buildinfo}, {@code config}, {@code flags}) and the views of other
 * components ({@code targets}, {@code rules}, {@code alerts}), shaped as Prometheus 2.42's JSON.
 * Thread-safe.
 */
final class StatusApi {
  private final BuildInfo buildInfo;
  private final Supplier<String> configYaml;
  private final Map<String, String> flags;
  private final TargetRetriever targets;
  private final RulesRetriever rules;

  StatusApi(
      BuildInfo buildInfo,
      Supplier<String> configYaml,
      Map<String, String> flags,
      TargetRetriever targets,
      RulesRetriever rules) {
    this.buildInfo = buildInfo;
    this.configYaml = configYaml;
    this.flags = new TreeMap<>(flags);
    this.targets = targets;
    this.rules = rules;
  }

  void buildInfo(Exchange ex) {
    Envelope.success(
        ex,
        g -> {
          g.writeStartObject();
          g.writeStringField("version", buildInfo.version());
          g.writeStringField("revision", buildInfo.revision());
          g.writeStringField("branch", buildInfo.branch());
          g.writeStringField("buildUser", buildInfo.buildUser());
          g.writeStringField("buildDate", buildInfo.buildDate());
          g.writeStringField("goVersion", buildInfo.goVersion());
          g.writeEndObject();
        });
  }

  void config(Exchange ex) {
    String yaml = configYaml.get();
    Envelope.success(
        ex,
        g -> {
          g.writeStartObject();
          g.writeStringField("yaml", yaml);
          g.writeEndObject();
        });
  }

  void flags(Exchange ex) {
    Envelope.success(ex, g -> Json.stringMap(g, flags));
  }

  void targets(Exchange ex) {
    String state = ex.queryParam("state").toLowerCase(Locale.ROOT);
    String pool = ex.queryParam("scrapePool");
    boolean active = state.isEmpty() || state.equals("any") || state.equals("active");
    boolean dropped = state.isEmpty() || state.equals("any") || state.equals("dropped");
    List<ActiveTarget> activeList = new ArrayList<>();
    if (active) {
      for (Map.Entry<String, List<ActiveTarget>> e :
          new TreeMap<>(targets.activeTargets()).entrySet()) {
        if (pool.isEmpty() || pool.equals(e.getKey())) {
          activeList.addAll(e.getValue());
        }
      }
    }
    List<DroppedTarget> droppedList = new ArrayList<>();
    if (dropped) {
      for (Map.Entry<String, List<DroppedTarget>> e :
          new TreeMap<>(targets.droppedTargets()).entrySet()) {
        if (pool.isEmpty() || pool.equals(e.getKey())) {
          droppedList.addAll(e.getValue());
        }
      }
    }
    Envelope.success(
        ex,
        g -> {
          g.writeStartObject();
          g.writeFieldName("activeTargets");
          g.writeStartArray();
          for (ActiveTarget t : activeList) {
            activeTarget(g, t);
          }
          g.writeEndArray();
          g.writeFieldName("droppedTargets");
          g.writeStartArray();
          for (DroppedTarget t : droppedList) {
            g.writeStartObject();
            g.writeFieldName("discoveredLabels");
            Json.labels(g, t.discoveredLabels());
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  private static void activeTarget(JsonGenerator g, ActiveTarget t) throws IOException {
    g.writeStartObject();
    g.writeFieldName("discoveredLabels");
    Json.labels(g, t.discoveredLabels());
    g.writeFieldName("labels");
    Json.labels(g, t.labels());
    g.writeStringField("scrapePool", t.scrapePool());
    g.writeStringField("scrapeUrl", t.scrapeUrl());
    g.writeStringField("globalUrl", t.globalUrl());
    g.writeStringField("lastError", t.lastError());
    if (!t.lastWarning().isEmpty()) {
      g.writeStringField("lastWarning", t.lastWarning());
    }
    g.writeStringField("lastScrape", GoTime.rfc3339Nano(t.lastScrape()));
    g.writeNumberField("lastScrapeDuration", t.lastScrapeDuration().toNanos() / 1e9);
    g.writeStringField("health", t.health());
    g.writeStringField("scrapeInterval", GoTime.promDuration(t.scrapeInterval()));
    g.writeStringField("scrapeTimeout", GoTime.promDuration(t.scrapeTimeout()));
    g.writeEndObject();
  }

  void rules(Exchange ex) {
    String type = ex.queryParam("type").toLowerCase(Locale.ROOT);
    if (!type.isEmpty() && !type.equals("alert") && !type.equals("record")) {
      throw ApiException.invalidParam("type", "not supported value \"" + type + "\"");
    }
    boolean alerts = type.isEmpty() || type.equals("alert");
    boolean records = type.isEmpty() || type.equals("record");
    List<RuleGroup> groups = rules.ruleGroups();
    Envelope.success(
        ex,
        g -> {
          g.writeStartObject();
          g.writeFieldName("groups");
          g.writeStartArray();
          for (RuleGroup grp : groups) {
            group(g, grp, alerts, records);
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  private static void group(JsonGenerator g, RuleGroup grp, boolean alerts, boolean records)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("name", grp.name());
    g.writeStringField("file", grp.file());
    g.writeFieldName("rules");
    g.writeStartArray();
    for (Rule r : grp.rules()) {
      if (r instanceof Rule.Alerting && alerts) {
        alerting(g, (Rule.Alerting) r);
      } else if (r instanceof Rule.Recording && records) {
        recording(g, (Rule.Recording) r);
      }
    }
    g.writeEndArray();
    g.writeNumberField("interval", grp.interval().toNanos() / 1e9);
    g.writeNumberField("limit", grp.limit());
    g.writeNumberField("evaluationTime", grp.evaluationTime().toNanos() / 1e9);
    g.writeStringField("lastEvaluation", GoTime.rfc3339Nano(grp.lastEvaluation()));
    g.writeEndObject();
  }

  private static void alerting(JsonGenerator g, Rule.Alerting r) throws IOException {
    g.writeStartObject();
    g.writeStringField("state", r.state());
    g.writeStringField("name", r.name());
    g.writeStringField("query", r.query());
    g.writeNumberField("duration", r.duration().toNanos() / 1e9);
    g.writeFieldName("labels");
    Json.labels(g, r.labels());
    g.writeFieldName("annotations");
    Json.labels(g, r.annotations());
    g.writeFieldName("alerts");
    g.writeStartArray();
    for (Alert a : r.alerts()) {
      alert(g, a);
    }
    g.writeEndArray();
    g.writeStringField("health", r.health());
    if (!r.lastError().isEmpty()) {
      g.writeStringField("lastError", r.lastError());
    }
    g.writeNumberField("evaluationTime", r.evaluationTime().toNanos() / 1e9);
    g.writeStringField("lastEvaluation", GoTime.rfc3339Nano(r.lastEvaluation()));
    g.writeStringField("type", "alerting");
    g.writeEndObject();
  }

  private static void recording(JsonGenerator g, Rule.Recording r) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", r.name());
    g.writeStringField("query", r.query());
    if (!r.labels().isEmpty()) {
      g.writeFieldName("labels");
      Json.labels(g, r.labels());
    }
    g.writeStringField("health", r.health());
    if (!r.lastError().isEmpty()) {
      g.writeStringField("lastError", r.lastError());
    }
    g.writeNumberField("evaluationTime", r.evaluationTime().toNanos() / 1e9);
    g.writeStringField("lastEvaluation", GoTime.rfc3339Nano(r.lastEvaluation()));
    g.writeStringField("type", "recording");
    g.writeEndObject();
  }

  void alerts(Exchange ex) {
    List<Alert> active = rules.activeAlerts();
    Envelope.success(
        ex,
        g -> {
          g.writeStartObject();
          g.writeFieldName("alerts");
          g.writeStartArray();
          for (Alert a : active) {
            alert(g, a);
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  private static void alert(JsonGenerator g, Alert a) throws IOException {
    g.writeStartObject();
    g.writeFieldName("labels");
    Json.labels(g, a.labels());
    g.writeFieldName("annotations");
    Json.labels(g, a.annotations());
    g.writeStringField("state", a.state());
    g.writeStringField("activeAt", GoTime.rfc3339Nano(java.util.Optional.of(a.activeAt())));
    g.writeStringField("value", GoFloat.formatE(a.value()));
    g.writeEndObject();
  }
}
