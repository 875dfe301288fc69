package dev.infermon.simulator.llamacpp;

import dev.infermon.simulator.text.CppFloat;

/**
 * llama-server's {@code /metrics} page as its handler writes it (tools/server/server-context.cpp,
 * the release line after #16818 renamed {@code n_past_max}): a list of counters then a list of
 * gauges, each as HELP, TYPE and one unlabelled sample, values through {@code std::ostream} ({@link
 * CppFloat}). Quirks kept: the colon in every name, no labels at all (no model name), {@code
 * n_tokens_max} and the average {@code n_busy_slots_per_decode} declared as counters, the seconds
 * counters at millisecond resolution, and the throughput gauges reset by every read. Stateless.
 */
public final class LlamacppPage {
  private LlamacppPage() {}

  /**
   * Renders the page, emptying the throughput bucket as the real handler does.
   *
   * @param m the server's counters
   */
  public static String render(LlamacppMetrics m) {
    LlamacppMetrics.Throughput t = m.takeBucket();
    StringBuilder sb = new StringBuilder(2048);
    counter(sb, "prompt_tokens_total", "Number of prompt tokens processed.", m.promptTokens);
    counter(sb, "prompt_seconds_total", "Prompt process time", m.promptMillis / 1e3);
    counter(
        sb, "tokens_predicted_total", "Number of generation tokens processed.", m.predictedTokens);
    counter(sb, "tokens_predicted_seconds_total", "Predict process time", m.predictedMillis / 1e3);
    counter(sb, "n_decode_total", "Total number of llama_decode() calls", m.decodes);
    counter(sb, "n_tokens_max", "Largest observed n_tokens.", m.maxTokens);
    counter(
        sb,
        "n_busy_slots_per_decode",
        "Average number of busy slots per llama_decode() call",
        (float) m.busySlots / Math.max((float) m.decodes, 1f));
    gauge(sb, "prompt_tokens_seconds", "Average prompt throughput in tokens/s.", t.prompt());
    gauge(
        sb,
        "predicted_tokens_seconds",
        "Average generation throughput in tokens/s.",
        t.predicted());
    gauge(sb, "requests_processing", "Number of requests processing.", m.processing());
    gauge(sb, "requests_deferred", "Number of requests deferred.", m.deferred());
    return sb.toString();
  }

  private static void counter(StringBuilder sb, String name, String help, double value) {
    line(sb, name, help, "counter", value);
  }

  private static void gauge(StringBuilder sb, String name, String help, double value) {
    line(sb, name, help, "gauge", value);
  }

  private static void line(StringBuilder sb, String name, String help, String type, double v) {
    sb.append("# HELP llamacpp:").append(name).append(' ').append(help).append('\n');
    sb.append("# TYPE llamacpp:").append(name).append(' ').append(type).append('\n');
    sb.append("llamacpp:").append(name).append(' ').append(CppFloat.format(v)).append('\n');
  }
}
