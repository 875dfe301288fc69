package dev.infermon.llm.catalog;

import dev.infermon.llm.signals.RouterSignal;
import dev.infermon.model.metadata.MetricType;
import java.util.Map;

/**
 * One family a router measures a {@link RouterSignal} with ({@code routers.yaml}, {@code
 * routers[].sources}).
 *
 * @param signal what it measures
 * @param family the family's name ({@code llm_d_epp_scheduler_attempts_total})
 * @param type gauge, counter or histogram
 * @param endpoint how a series names the engine pod it is about; {@link Endpoint#NONE} for a
 *     router-wide series (a model's latency, the router's own queue)
 * @param match label values a series must have ({@code status: success})
 * @param by the label that splits the signal (a decision's {@code status}), else empty
 * @param since when the family appeared, else empty
 * @param pairs whether every series of a router-wide family is about requests the router sent to
 *     prefill/decode pairs ({@code smg_pd_ttft_seconds}): a view of no pair's pods has none of it
 * @param noModel whether the router-wide family's series carry no model label at all (sgl-router's
 *     {@code sgl_router_request_duration_seconds}): every model's requests in one series, which no
 *     model's view can take as its own
 * @param userTtft whether a {@code ttft} source times the first token as the user sees it, every
 *     request of the model through it (NVIDIA Dynamo's frontend): the alert pack's TTFT rule reads
 *     it instead of the engines behind it
 * @param note what the source says of it
 */
public record RouterSource(
    RouterSignal signal,
    String family,
    MetricType type,
    Endpoint endpoint,
    Map<String, String> match,
    String by,
    String since,
    boolean pairs,
    boolean noModel,
    boolean userTtft,
    String note) {
  /** Validates. */
  public RouterSource {
    if (signal == null || endpoint == null || type == null) {
      throw new IllegalArgumentException("signal, type and endpoint are required");
    }
    if (family == null || family.isBlank()) {
      throw new IllegalArgumentException("family must not be blank");
    }
    if (type == MetricType.COUNTER && !family.endsWith("_total")) {
      throw new IllegalArgumentException("counter " + family + " must end in _total");
    }
    if (pairs && endpoint.named()) {
      throw new IllegalArgumentException(
          "pairs is for a router-wide family; " + family + " names its pod by " + endpoint.label());
    }
    if (noModel && endpoint.named()) {
      throw new IllegalArgumentException(
          "no_model is for a router-wide family; "
              + family
              + " names its pod by "
              + endpoint.label());
    }
    if (userTtft && (signal != RouterSignal.TTFT || endpoint.named())) {
      throw new IllegalArgumentException("user_ttft is for a router-wide ttft source: " + family);
    }
    match = Map.copyOf(match);
    by = by == null ? "" : by;
    since = since == null ? "" : since;
    note = note == null ? "" : note;
  }

  /**
   * The label naming the engine a series is about: its pod's name ({@code endpoint_name}), or its
   * URL, whose first group of {@code regex} is the engine target's {@code instance} ({@code server}
   * = {@code http://10.0.0.7:8000}).
   *
   * @param label the label, empty for {@link #NONE}
   * @param isInstance whether the value is a URL joined on {@code instance} (else a pod name)
   * @param regex for a URL, the RE2 pattern whose first group is {@code host:port}
   */
  public record Endpoint(String label, boolean isInstance, String regex) {
    /** A router-wide series: no engine named. */
    public static final Endpoint NONE = new Endpoint("", false, "");

    /** Validates. */
    public Endpoint {
      if (isInstance && (regex == null || !regex.contains("("))) {
        throw new IllegalArgumentException("an instance endpoint needs a regex with a group");
      }
      regex = regex == null ? "" : regex;
    }

    /** Whether the series names an engine pod. */
    public boolean named() {
      return !label.isEmpty();
    }
  }
}
