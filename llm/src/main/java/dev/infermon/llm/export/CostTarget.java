package dev.infermon.llm.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.dashboard.PromqlCompiler;
import java.util.List;
import java.util.Optional;

/**
 * The exported cost panel: the expression the dashboard computes for cost per million generated
 * tokens ({@link PromqlCompiler#compileCostPerMillionTokens}), with the price of a GPU-hour a
 * Grafana dashboard variable, {@value #VARIABLE}. The variable prices every GPU that {@code
 * llm.cost}'s {@code gpu_hour_prices} does not (those keep their own prices in the expression); it
 * defaults to {@code llm.cost.default_gpu_hour_price} when given, else to {@value #DEFAULT_PRICE},
 * which makes the panel read GPU-hours per million tokens until a price is typed in
 * (docs/dashboard.md). Stateless.
 */
final class CostTarget {
  /** The variable's name. */
  static final String VARIABLE = "gpu_hour_price";

  /** The variable's value when {@code llm.cost} sets no default price. */
  static final double DEFAULT_PRICE = 1;

  // compiled with this price, then replaced by the variable: the compiler takes numbers only
  private static final double PLACEHOLDER_PRICE = 987654.321;

  private CostTarget() {}

  /** The cost expression grouped by {@code groupBy}, the default price the variable. */
  static Optional<String> expr(
      PromqlCompiler compiler,
      List<String> groupBy,
      PromqlCompiler.Options o,
      LlmConfig.Cost cost) {
    LlmConfig.Cost priced =
        new LlmConfig.Cost(cost.currency(), Optional.of(PLACEHOLDER_PRICE), cost.gpuHourPrices());
    String placeholder = Double.toString(PLACEHOLDER_PRICE);
    return compiler
        .compileCostPerMillionTokens(groupBy, o, priced)
        .map(
            e -> {
              if (!e.contains(placeholder)) {
                throw new IllegalStateException("no default price in the cost expression: " + e);
              }
              return e.replace(placeholder, "$" + VARIABLE);
            });
  }

  /** The variable, a text box holding {@code cost}'s default price (or {@value #DEFAULT_PRICE}). */
  static void variable(ArrayNode list, LlmConfig.Cost cost) {
    String price = number(cost.defaultGpuHourPrice().orElse(DEFAULT_PRICE));
    ObjectNode v = list.addObject();
    v.put("name", VARIABLE);
    v.put("label", "GPU-hour price (" + cost.currency() + ")");
    v.put("type", "textbox");
    v.put("query", price);
    v.putObject("current").put("text", price).put("value", price);
    v.put(
        "description",
        "The price of one GPU-hour, for the cost panel: every GPU that llm.cost.gpu_hour_prices"
            + " does not price. Default: llm.cost.default_gpu_hour_price, else "
            + number(DEFAULT_PRICE)
            + " (the panel then reads GPU-hours per million generated tokens).");
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
