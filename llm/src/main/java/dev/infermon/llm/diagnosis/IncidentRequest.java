package dev.infermon.llm.diagnosis;

import dev.infermon.llm.BadParameterException;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.parser.VectorSelector;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Which alert's incident to show, as a caller gives it: the alert's labels (those {@code
 * /api/v1/alerts} shows, {@code alertname} included), the expression of its rule, and optionally
 * the end of the view (default now), how far back to look for the alert's last firing (default
 * {@link DiagnosisService#INCIDENT_LOOKBACK}) and how long before it fired the view starts (default
 * {@link DiagnosisService#INCIDENT_LEAD_IN}). Times and durations in milliseconds. Immutable.
 *
 * @param labels the alert's labels, {@code alertname} included
 * @param expr the alerting rule's expression
 * @param endMs the end of the view and of the search for the alert
 * @param lookbackMs how far back from the end the alert's last firing is searched for
 * @param leadInMs how long before the firing started the view begins
 * @param firingSinceMs when the alert became active, when the caller knows it fires now (as {@code
 *     /api/v1/alerts} says): the firing's start while {@code ALERTS} has no point for it yet (a
 *     rule writes {@code ALERTS} from its group's second evaluation after start)
 */
public record IncidentRequest(
    Map<String, String> labels,
    String expr,
    OptionalLong endMs,
    OptionalLong lookbackMs,
    OptionalLong leadInMs,
    OptionalLong firingSinceMs) {
  public IncidentRequest {
    if (labels == null
        || expr == null
        || endMs == null
        || lookbackMs == null
        || leadInMs == null
        || firingSinceMs == null) {
      throw new IllegalArgumentException("give OptionalLong.empty() for a part left out, not null");
    }
    if (labels.getOrDefault("alertname", "").isEmpty()) {
      throw new BadParameterException("alert", "the alert's labels have no alertname");
    }
    labels = Map.copyOf(new TreeMap<>(labels));
  }

  /** The alert's last firing within the default lookback up to now, with the defaults. */
  public IncidentRequest(Map<String, String> labels, String expr) {
    this(
        labels,
        expr,
        OptionalLong.empty(),
        OptionalLong.empty(),
        OptionalLong.empty(),
        OptionalLong.empty());
  }

  /** The rule's {@code alert}. */
  public String alertName() {
    return labels.get("alertname");
  }

  /**
   * The labels an alert selector names: {@code LLMTimeToFirstTokenHigh{namespace="inference",
   * model_name="m"}} (the name is {@code alertname}; {@code {alertname="...", ...}} alike), every
   * matcher an equality.
   *
   * @throws BadParameterException {@code alert}, when it is not such a selector
   */
  public static Map<String, String> parseAlert(String selector) {
    Expr e;
    try {
      e = PromqlParser.parse(selector);
    } catch (ParseException x) {
      throw new BadParameterException(
          "alert", "not an alert selector such as Name{label=\"value\"}: " + x.getMessage());
    }
    if (!(e instanceof VectorSelector)) {
      throw new BadParameterException(
          "alert", "not an alert selector such as Name{label=\"value\"}: " + selector);
    }
    VectorSelector v = (VectorSelector) e;
    if (v.offsetMs() != 0 || v.at() != null) {
      throw new BadParameterException("alert", "an alert selector has no offset or @: " + selector);
    }
    Map<String, String> out = new TreeMap<>();
    for (Matcher m : v.matchers()) {
      if (m.type() != MatchType.EQUAL) {
        throw new BadParameterException(
            "alert", "an alert's labels are given with = only, not " + m + ": " + selector);
      }
      String name = m.name().equals("__name__") ? "alertname" : m.name();
      if (out.containsKey(name) && !out.get(name).equals(m.value())) {
        throw new BadParameterException("alert", "two values for " + name + " in " + selector);
      }
      if (!m.value().isEmpty()) {
        out.put(name, m.value());
      }
    }
    if (!out.containsKey("alertname")) {
      throw new BadParameterException("alert", "the selector names no alert: " + selector);
    }
    return out;
  }
}
