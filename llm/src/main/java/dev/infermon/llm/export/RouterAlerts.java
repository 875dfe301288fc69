package dev.infermon.llm.export;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.Router;
import dev.infermon.llm.catalog.RouterSource;
import dev.infermon.llm.signals.RouterSignal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The alert pack's router rule, from the routers' own queues in {@code routers.yaml} (a {@code
 * queue} source that names no engine pod: the SGLang Model Gateway's admission queue, NVIDIA
 * Dynamo's frontend's requests without a first token, per model summed per frontend): more than
 * {@code llm.alerts.waiting_threshold} requests wait in a router's queue and the queue grew over
 * the last ten minutes, for {@code waiting_for}. A queue in front of the engines that keeps growing
 * is users waiting before any engine sees their request, which no engine alert can show. Per router
 * target ({@code namespace, pod}). Stateless.
 */
final class RouterAlerts {
  static final String QUEUE = "LLMRouterQueueGrowing";

  private RouterAlerts() {}

  /**
   * The TTFT quantile of each router-wide source that times the first token as the user sees it
   * ({@code routers.yaml}'s {@code user_ttft}: NVIDIA Dynamo's frontend, both generations) whose
   * family {@code present} accepts, by {@code namespace} and {@code model_name} (the router's model
   * label renamed), not compared with any threshold. One quantile per source: the generations'
   * bucket bounds need not be the same.
   */
  static List<String> userTtft(
      Catalog catalog,
      double quantile,
      String window,
      java.util.function.Predicate<String> present) {
    List<String> out = new ArrayList<>();
    for (Router r : catalog.nonEngine().routers()) {
      for (RouterSource s : r.sources(RouterSignal.TTFT)) {
        String bucket = s.family() + "_bucket";
        if (!s.userTtft() || !(present.test(s.family()) || present.test(bucket))) {
          continue;
        }
        String rate = "rate(" + bucket + "[" + window + "])";
        if (!r.modelLabel().equals("model_name")) {
          rate =
              "label_replace("
                  + rate
                  + ", \"model_name\", \"$1\", \""
                  + r.modelLabel()
                  + "\", \"(.*)\")";
        }
        out.add(
            "histogram_quantile("
                + new java.math.BigDecimal(Double.toString(quantile))
                    .stripTrailingZeros()
                    .toPlainString()
                + ", sum by (namespace, model_name, le) ("
                + rate
                + "))");
      }
    }
    return out;
  }

  static Optional<AlertRule> queue(Catalog catalog, LlmConfig.Alerts alerts) {
    return queue(catalog, alerts, f -> true);
  }

  /** The rule over the router queues whose family {@code present} accepts (a fleet's routers). */
  static Optional<AlertRule> queue(
      Catalog catalog, LlmConfig.Alerts alerts, java.util.function.Predicate<String> present) {
    List<String> depth = new ArrayList<>();
    List<String> growth = new ArrayList<>();
    for (Router r : catalog.nonEngine().routers()) {
      for (RouterSource s : r.sources(RouterSignal.QUEUE)) {
        if (!s.endpoint().named() && present.test(s.family())) {
          depth.add("sum by (namespace, pod) (" + s.family() + ")");
          growth.add("sum by (namespace, pod) (delta(" + s.family() + "[10m]))");
        }
      }
    }
    if (depth.isEmpty()) {
      return Optional.empty();
    }
    String expr =
        "(("
            + String.join(" or ", depth)
            + ") > "
            + alerts.waitingThreshold()
            + ") and (("
            + String.join(" or ", growth)
            + ") > 0)";
    return Optional.of(
        new AlertRule(
            QUEUE,
            expr,
            alerts.waitingFor(),
            Map.of("severity", "warning"),
            Map.of(
                "summary",
                "{{ $labels.pod }}: more than "
                    + alerts.waitingThreshold()
                    + " requests wait in the router's own queue, and it grows",
                "description",
                "{{ $value }} requests wait in the queue of router {{ $labels.pod }} in {{"
                    + " $labels.namespace }}, before any engine gets them (a gateway's admission"
                    + " queue) or before their first token (NVIDIA Dynamo's frontend, prefill"
                    + " included): the engines behind it are saturated or too few.")));
  }
}
