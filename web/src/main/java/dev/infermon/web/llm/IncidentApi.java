package dev.infermon.web.llm;

import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.diagnosis.Incident;
import dev.infermon.llm.diagnosis.IncidentJson;
import dev.infermon.llm.diagnosis.IncidentRequest;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.Envelope;
import dev.infermon.web.api.ErrorType;
import dev.infermon.web.api.Params;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import dev.infermon.web.retrieval.Alert;
import dev.infermon.web.retrieval.Rule;
import dev.infermon.web.retrieval.RuleGroup;
import dev.infermon.web.retrieval.RulesRetriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * {@code /api/v1/llm/incident} (docs/http-api.md, "Incidents"): an adapter over the llm module's
 * {@link DiagnosisService#incident}. It names the alert by its labels ({@code alert}, a selector
 * such as {@code LLMTimeToFirstTokenHigh{namespace="inference", model_name="m"}}: the labels {@code
 * /api/v1/alerts} shows), finds the loaded alerting rule of that name whose labels the alert has,
 * and hands the rule's expression to the service, which finds the alert's last firing and builds
 * the view; for an alert firing now it also passes when the alert became active, which the service
 * takes while {@code ALERTS} holds nothing for it yet.
 *
 * <p>Threading: thread-safe; every request reads the rules and the service afresh.
 */
public final class IncidentApi {
  private final Supplier<DiagnosisService> diagnosis;
  private final RulesRetriever rules;

  /**
   * @param diagnosis null while the storage is not ready
   * @param rules the loaded rules, for the alert's expression
   */
  public IncidentApi(Supplier<DiagnosisService> diagnosis, RulesRetriever rules) {
    this.diagnosis = diagnosis;
    this.rules = rules;
  }

  public void register(Router router) {
    router.add("/api/v1/llm/incident", LlmRoutes.api(this::incident), "GET", "POST");
  }

  private void incident(Exchange ex) throws IOException, BodyTooLargeException {
    String alert = ex.param("alert");
    if (alert.isEmpty()) {
      throw ApiException.invalidParam(
          "alert",
          "give the alert as Name{label=\"value\", ...}, its labels as /api/v1/alerts has");
    }
    Map<String, String> labels = IncidentRequest.parseAlert(alert);
    List<String> exprs = expressions(labels);
    if (exprs.isEmpty()) {
      throw new ApiException(
          ErrorType.NOT_FOUND,
          "no loaded alerting rule is named \""
              + labels.get("alertname")
              + "\" with labels the alert has");
    }
    DiagnosisService service = LlmRoutes.ready(diagnosis);
    for (String expr : exprs) {
      Optional<Incident> found =
          service.incident(
              new IncidentRequest(
                  labels,
                  expr,
                  LlmRoutes.optional(ex, "end", Params::time),
                  LlmRoutes.optional(ex, "lookback", Params::duration),
                  LlmRoutes.optional(ex, "lead_in", Params::duration),
                  firingSince(labels)));
      if (found.isPresent()) {
        Object tree = IncidentJson.tree(found.get());
        Envelope.success(ex, g -> LlmJson.tree(g, tree));
        return;
      }
    }
    throw new ApiException(
        ErrorType.NOT_FOUND,
        "the alert "
            + alert
            + " did not fire within the lookback (ALERTS{alertstate=\"firing\"} has no point for"
            + " it)");
  }

  /** When the alert became active, if it is firing now: the start while ALERTS has none yet. */
  private OptionalLong firingSince(Map<String, String> labels) {
    for (Alert a : rules.activeAlerts()) {
      if (a.state().equals("firing") && a.labels().toMap().equals(labels)) {
        return OptionalLong.of(a.activeAt().toEpochMilli());
      }
    }
    return OptionalLong.empty();
  }

  /**
   * The expressions of the alerting rules named as the alert whose own labels the alert carries
   * (several rules may share a name), in rule order.
   */
  private List<String> expressions(Map<String, String> labels) {
    List<String> out = new ArrayList<>();
    for (RuleGroup g : rules.ruleGroups()) {
      for (Rule r : g.rules()) {
        if (r instanceof Rule.Alerting && r.name().equals(labels.get("alertname"))) {
          Map<String, String> own = ((Rule.Alerting) r).labels().toMap();
          boolean carried = true;
          for (Map.Entry<String, String> e : own.entrySet()) {
            // a templated label ({{ $labels.x }}) is expanded on the alert: only literal ones count
            carried &= e.getValue().contains("{{") || e.getValue().equals(labels.get(e.getKey()));
          }
          if (carried) {
            out.add(r.query());
          }
        }
      }
    }
    return out;
  }
}
