package dev.infermon.llm.diagnosis;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One alert's incident, on one time axis: when it fired (and, once resolved, stopped), the value of
 * its expression over the view, the diagnosis re-evaluated at steps over the view with the times
 * its cause changed, and the pods involved (docs/http-api.md, "Incidents"). Immutable.
 *
 * @param labels the alert's labels, {@code alertname} included
 * @param expr the alerting rule's expression
 * @param firingStartMs the first evaluation step of the alert's last firing
 * @param firingEndMs the last step it was firing; the view's end while it still fires
 * @param resolved whether the alert stopped firing before the view's end
 * @param startMs the view's start: the firing's start minus the lead-in
 * @param endMs the view's end
 * @param stepMs the step of {@link #symptom}
 * @param symptom the expression's series for the alert over the view; empty values when the
 *     expression returned nothing for it in the view
 * @param timeline the causes diagnosis named over the view, oldest first, one entry per change
 * @param evaluations the times diagnosis was evaluated at, oldest first
 * @param pods the pods involved: the alert's pod, else those the causes name, else every pod of the
 *     alert's model diagnosis examined
 * @param note why the timeline is empty when it is (the alert is not one diagnosis speaks to), else
 *     ""
 */
public record Incident(
    Map<String, String> labels,
    String expr,
    long firingStartMs,
    long firingEndMs,
    boolean resolved,
    long startMs,
    long endMs,
    long stepMs,
    Series symptom,
    List<Cause> timeline,
    List<Long> evaluations,
    List<Pod> pods,
    String note) {
  public Incident {
    labels = Map.copyOf(new TreeMap<>(labels));
    timeline = List.copyOf(timeline);
    evaluations = List.copyOf(evaluations);
    pods = List.copyOf(pods);
    if (expr == null || symptom == null || note == null || endMs < startMs || stepMs <= 0) {
      throw new IllegalArgumentException("an incident needs an expression, a symptom, a view");
    }
  }

  /**
   * The expression's values for the alert on the view's grid.
   *
   * @param labels the series' labels (a subset of the alert's); empty when none matched
   * @param startMs the time of the first value
   * @param stepMs the grid's step
   * @param values the value at {@code startMs + i * stepMs}, NaN where the series has no point
   */
  public record Series(Map<String, String> labels, long startMs, long stepMs, List<Double> values) {
    public Series {
      labels = Map.copyOf(labels);
      values = List.copyOf(values);
    }
  }

  /**
   * A cause diagnosis named from one evaluation to the next change.
   *
   * @param fromMs the first evaluation that named it
   * @param toMs the last evaluation that named it
   * @param state the state's id, {@code cause-not-found}, or "" when diagnosis did not see the
   *     alert's symptom then
   * @param pod the pod of the finding named ("" for a model-level finding or none)
   * @param cause the line the alert's {@code cause} annotation had then
   * @param evidence the facts of the state named, most telling first
   */
  public record Cause(
      long fromMs, long toMs, String state, String pod, String cause, List<Evidence> evidence) {
    public Cause {
      if (state == null || pod == null || cause == null || toMs < fromMs) {
        throw new IllegalArgumentException("a cause needs a state, a pod, a line and a span");
      }
      evidence = List.copyOf(evidence);
    }
  }

  /**
   * A pod involved.
   *
   * @param namespace its namespace
   * @param pod its name
   * @param model its {@code model_name}
   * @param states the ids of the states named on it over the view, in the chain's order; empty for
   *     a pod included as one of the model's
   */
  public record Pod(String namespace, String pod, String model, List<String> states) {
    public Pod {
      if (namespace == null || pod == null || pod.isEmpty() || model == null) {
        throw new IllegalArgumentException("a pod needs a namespace, a name and a model");
      }
      states = List.copyOf(states);
    }
  }
}
