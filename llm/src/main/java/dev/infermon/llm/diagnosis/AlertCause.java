package dev.infermon.llm.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What diagnosis says about one active alert at one moment: the cause in one line, the evidence it
 * rests on and the dashboard view of the model (or pod) over the alert's time range. {@link
 * #annotations} renders it as the annotations the alert carries (docs/alerting.md). Immutable.
 *
 * @param state the id of the state named ({@code kv-pressure}), {@code cause-not-found}, or "" when
 *     diagnosis saw nothing on the alert's model over its window
 * @param cause one line: the state and its summary, and the other states that explain the same
 * @param evidence the facts of the state named, most telling first
 * @param dashboard the dashboard's path and query, without the external URL: {@code
 *     /dashboard?namespace=...&model=...&from=...&to=...} (times in ms)
 * @param incident the incident page of the alert, without the external URL: {@code
 *     /incident?alert=Name%7B...%7D} (the alert's labels as a selector)
 */
public record AlertCause(
    String state, String cause, List<Evidence> evidence, String dashboard, String incident) {
  /** The annotation with the cause in one line. */
  public static final String CAUSE = "cause";

  /** The annotation with the evidence: {@code signal series = value at time (note)}, by "; ". */
  public static final String EVIDENCE = "cause_evidence";

  /** The annotation with the dashboard's URL. */
  public static final String DASHBOARD = "dashboard_url";

  /**
   * The annotation with the incident page's URL: the alert's symptom, causes and pods over time.
   */
  public static final String INCIDENT = "incident_url";

  /** The annotation in place of the others when diagnosis could not run (the query's error). */
  public static final String ERROR = "cause_error";

  /** At most this many facts go into {@link #EVIDENCE}: an annotation is read in a chat line. */
  static final int EVIDENCE_SHOWN = 3;

  public AlertCause {
    if (state == null
        || cause == null
        || cause.isBlank()
        || dashboard == null
        || incident == null) {
      throw new IllegalArgumentException(
          "an alert's cause needs a state, a line, a dashboard and an incident");
    }
    if (cause.contains("\n")) {
      throw new IllegalArgumentException("the cause is one line, got: " + cause);
    }
    evidence = List.copyOf(evidence);
  }

  /**
   * The annotations: {@link #CAUSE}, {@link #EVIDENCE} when there is any, {@link #DASHBOARD} as
   * {@code externalUrl} (no trailing slash) followed by {@link #dashboard}, {@link #INCIDENT}
   * likewise.
   */
  public Map<String, String> annotations(String externalUrl) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(CAUSE, cause);
    if (!evidence.isEmpty()) {
      List<String> facts = new ArrayList<>();
      for (Evidence e : evidence.subList(0, Math.min(EVIDENCE_SHOWN, evidence.size()))) {
        facts.add(fact(e));
      }
      out.put(EVIDENCE, String.join("; ", facts));
    }
    out.put(DASHBOARD, externalUrl + dashboard);
    out.put(INCIDENT, externalUrl + incident);
    return out;
  }

  /**
   * {@code KV usage {namespace="a", pod="p"} = 0.97 at 2026-12-02T05:10:00Z (max over the window)}.
   */
  static String fact(Evidence e) {
    return e.signal()
        + " "
        + e.series()
        + " = "
        + Symptoms.num(e.value())
        + " at "
        + Instant.ofEpochMilli(e.timeMs())
        + (e.note().isEmpty() ? "" : " (" + e.note() + ")");
  }
}
