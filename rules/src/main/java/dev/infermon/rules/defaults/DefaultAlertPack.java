package dev.infermon.rules.defaults;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.value.PromDuration;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleFileParser;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * The alerts infermon ships (config section {@code llm.alerts}): per model, time to first token
 * over its threshold, and requests piling up while the engine preempts. Each is written twice, for
 * vLLM's and for SGLang's metric names (their TTFT buckets differ, so they cannot be summed into
 * one histogram). The text is generated from the thresholds; with the defaults it equals the
 * shipped {@code default-alerts.yml}. Stateless.
 */
public final class DefaultAlertPack {
  /** The name the pack's rules carry as their file. */
  public static final String FILE = "<infermon>/default-alerts.yml";

  /** The classpath resource holding the pack with default thresholds. */
  public static final String RESOURCE = "/dev/infermon/rules/default-alerts.yml";

  private DefaultAlertPack() {}

  /** The pack as a rule file, or null when {@code llm.alerts.enabled} is false. */
  public static RuleFile ruleFile(LlmConfig.Alerts alerts) {
    if (!alerts.enabled()) {
      return null;
    }
    return RuleFileParser.parse(FILE, yaml(alerts));
  }

  /** The pack's YAML for these thresholds. */
  public static String yaml(LlmConfig.Alerts a) {
    String q = number(a.ttftQuantile());
    String threshold = number(a.ttftThreshold().toMillis() / 1000.0);
    String pct = number(a.ttftQuantile() * 100);
    String waiting = Long.toString(a.waitingThreshold());
    StringBuilder sb = new StringBuilder();
    sb.append("# infermon's default alert pack, generated from the llm.alerts settings.\n")
        .append("# Per model: time to first token (TTFT) over target, and requests waiting while\n")
        .append("# the engine preempts. Written for vLLM and SGLang metric names.\n")
        .append("groups:\n")
        .append("  - name: infermon-llm-default-alerts\n")
        .append("    rules:\n");
    for (String engine : new String[] {"vllm", "sglang"}) {
      sb.append("      - alert: LLMTimeToFirstTokenHigh\n")
          .append("        expr: |\n")
          .append("          histogram_quantile(")
          .append(q)
          .append(", sum by (namespace, model_name, le) (rate(")
          .append(engine)
          .append(":time_to_first_token_seconds_bucket[5m])))\n")
          .append("            > ")
          .append(threshold)
          .append('\n')
          .append("        for: ")
          .append(PromDuration.format(a.ttftFor()))
          .append('\n')
          .append("        labels:\n")
          .append("          severity: warning\n")
          .append("          inference_engine: ")
          .append(engine)
          .append('\n')
          .append("        annotations:\n")
          .append("          summary: 'TTFT p")
          .append(pct)
          .append(" of {{ $labels.model_name }} is {{ $value | humanizeDuration }}'\n")
          .append("          description: 'The ")
          .append(pct)
          .append("th percentile time to first token of model {{ $labels.model_name }}")
          .append(" has been above ")
          .append(PromDuration.format(a.ttftThreshold()))
          .append(" for ")
          .append(PromDuration.format(a.ttftFor()))
          .append(". Users wait before they see output; look at waiting requests,")
          .append(" KV-cache usage and preemptions.'\n");
    }
    String[][] queues = {
      {
        "vllm",
        "sum by (namespace, model_name) (vllm:num_requests_waiting) > " + waiting,
        "sum by (namespace, model_name) (rate(vllm:num_preemptions_total[5m])) > 0"
      },
      {
        "sglang",
        "sum by (namespace, model_name) (sglang:num_queue_reqs) > " + waiting,
        "(sum by (namespace, model_name) (rate(sglang:num_retracted_requests_total[5m])) > 0"
            + " or sum by (namespace, model_name) (max_over_time(sglang:num_retracted_reqs[5m])) > 0)"
      }
    };
    for (String[] e : queues) {
      sb.append("      - alert: LLMRequestsQueuedWhilePreempting\n")
          .append("        expr: |\n")
          .append("          ")
          .append(e[1])
          .append('\n')
          .append("          and on (namespace, model_name)\n")
          .append("          ")
          .append(e[2])
          .append('\n')
          .append("        for: ")
          .append(PromDuration.format(a.waitingFor()))
          .append('\n')
          .append("        labels:\n")
          .append("          severity: warning\n")
          .append("          inference_engine: ")
          .append(e[0])
          .append('\n')
          .append("        annotations:\n")
          .append("          summary: '{{ $value }} requests waiting for {{ $labels.model_name }}")
          .append(" while it preempts'\n")
          .append("          description: 'More than ")
          .append(waiting)
          .append(" requests have been waiting for model {{ $labels.model_name }} for ")
          .append(PromDuration.format(a.waitingFor()))
          .append(" while the engine preempts running requests: the KV cache is too small")
          .append(" for the load. Add replicas or KV-cache memory.'\n");
    }
    return sb.toString();
  }

  private static String number(double v) {
    return new BigDecimal(Double.toString(v))
        .stripTrailingZeros()
        .toPlainString()
        .toLowerCase(Locale.ROOT);
  }
}
