package dev.infermon.llm.dashboard;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PromQL that turns vLLM's {@code lora_requests_info} into per-adapter series at query time.
 *
 * <p>vLLM writes the LoRA state into one gauge's labels ({@code max_lora}, {@code
 * waiting_lora_adapters}, {@code running_lora_adapters}: adapter names joined with {@code ,}) and
 * sets the combination of the moment to the current time; every combination seen stays on the page
 * (catalog note). So, per target, the series with the largest value is the state, and each list is
 * split with one {@code label_replace} per position into series labelled {@code lora_adapter}
 * (value 1). The per-adapter views count a list that was current at any moment of the step (its
 * value, the time it was set, falls within the step), not only at the step's end: an engine scraped
 * every second may run an adapter's requests between two steps, and the model filter must not offer
 * an adapter that its panel then shows as idle. An adapter that went idle is in no list any more,
 * but its past samples are stored: over a window its series keeps the steps at which it was listed.
 * The split stops at {@link #POSITIONS} adapters per list; {@code max_lora} is read from its
 * digits, 1 to 99 (PromQL cannot turn a label into a number). Why at query time and not at
 * ingestion: docs/rationale.md, "LoRA adapters split at query time". Stateless.
 */
final class LoraQueries {
  /** Adapters split out of one list (its first ones, in vLLM's order). */
  static final int POSITIONS = 16;

  static final String ADAPTER = "lora_adapter";
  private static final String TARGET = "namespace, pod, instance";
  private static final String JOIN = " * on (namespace, pod) group_left (model_name, role) ";

  private LoraQueries() {}

  /**
   * The view's PromQL grouped by {@code g} (plus {@code lora_adapter} for the per-adapter views).
   *
   * @param selectors the lora family's selectors, one per spelling present, without the model
   *     filter (the family has no {@code model_name})
   * @param pods the inference pods in scope, one series per pod with {@code model_name} and {@code
   *     role} (the model filter applies there)
   * @param adapter the adapter filter (literal), empty for all: it scopes the per-adapter views
   *     (slots are a pod's, whichever adapter takes them)
   * @param step the query's step ({@code 15s}, {@code 1500ms}): how far back {@code LISTED} looks
   */
  static String compile(
      Measure.Lora.View view,
      List<String> selectors,
      String pods,
      List<String> g,
      String adapter,
      String step) {
    String raw = "(" + String.join(" or ", selectors) + ")";
    String by = String.join(", ", g);
    switch (view) {
      case LISTED:
        String seen = recent(raw, step);
        return "sum by ("
            + by
            + ", "
            + ADAPTER
            + ") (("
            + splitOf(seen, "running", adapter)
            + " or "
            + splitOf(seen, "waiting", adapter)
            + ")"
            + JOIN
            + pods
            + ")";
      case RUNNING:
        return "sum by ("
            + by
            + ", "
            + ADAPTER
            + ") ("
            + splitOf(recent(raw, step), "running", adapter)
            + JOIN
            + pods
            + ")";
      case WAITING:
        return "sum by ("
            + by
            + ", "
            + ADAPTER
            + ") ("
            + splitOf(recent(raw, step), "waiting", adapter)
            + JOIN
            + pods
            + ")";
      case SLOTS_USED:
        return "sum by ("
            + by
            + ") (count by ("
            + TARGET
            + ") ("
            + split(raw, "running", "")
            + ")"
            + JOIN
            + pods
            + ")";
      default:
        return "sum by (" + by + ") ((" + maxLora(selectors) + ")" + JOIN + pods + ")";
    }
  }

  /** Each target's newest series: the combination of labels the engine set last. */
  static String latest(String raw) {
    return raw + " == on (" + TARGET + ") group_left () max by (" + TARGET + ") " + raw;
  }

  /**
   * Each target's series that were current at some moment of the step ending now: a series' value
   * is the time the engine last set it (epoch seconds), so those set within the step, plus the
   * newest (an idle engine sets nothing: its last state still holds; a replayed capture keeps its
   * captured values).
   */
  static String recent(String raw, String step) {
    return "((" + raw + " > time() - " + seconds(step) + ") or " + latest(raw) + ")";
  }

  /**
   * A step in seconds, as PromQL: {@code 15s}, {@code 1500ms}, {@code 5m}, or Grafana's {@code
   * $__interval}.
   */
  private static String seconds(String step) {
    if (step.equals("$__interval")) {
      return "$__interval_ms / 1000"; // Grafana's step, in ms
    }
    Matcher m = STEP.matcher(step);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "step must be like 15s, 1500ms or 5m, got \"" + step + "\"");
    }
    long n = Long.parseLong(m.group(1));
    switch (m.group(2)) {
      case "ms":
        return Double.toString(n / 1000.0);
      case "m":
        return Long.toString(n * 60);
      case "h":
        return Long.toString(n * 3600);
      default:
        return Long.toString(n);
    }
  }

  private static final Pattern STEP = Pattern.compile("(\\d+)(ms|s|m|h)");

  /**
   * One series per adapter the newest series lists in {@code <list>_lora_adapters}, value 1: the
   * list's adapter at each position, the positions joined with {@code or}; a position past the
   * list's end leaves the series without {@code lora_adapter}, which {@code unless} drops.
   */
  static String split(String raw, String list, String adapter) {
    return splitOf(latest(raw), list, adapter);
  }

  /** {@link #split} over {@code latest}, the series whose lists count. */
  private static String splitOf(String latest, String list, String adapter) {
    // one adapter: the position must hold exactly that name, the rest of the list after a comma
    String name = adapter.isEmpty() ? "([^,]+).*" : "(" + escape(adapter) + ")(?:,.*)?";
    List<String> positions = new ArrayList<>();
    for (int k = 0; k < POSITIONS; k++) {
      String skip = k == 0 ? "" : "(?:[^,]*,){" + k + "}";
      positions.add(
          "label_replace("
              + latest
              + ", \""
              + ADAPTER
              + "\", \"$1\", \""
              + list
              + "_lora_adapters\", "
              + Filters.quote(skip + name)
              + ")");
    }
    return "(group by ("
        + TARGET
        + ", "
        + ADAPTER
        + ") ("
        + String.join(" or ", positions)
        + ") unless on ("
        + ADAPTER
        + ") vector(1))";
  }

  /**
   * {@code max_lora} as a number per target, from its decimal digits: the ones digit d is the
   * series whose label matches {@code [0-9]*d}, the tens digit {@code [0-9]*d[0-9]}; a one-digit
   * value has no tens term, so the tens add 0 there.
   */
  static String maxLora(List<String> selectors) {
    List<String> ones = new ArrayList<>();
    List<String> tens = new ArrayList<>();
    for (int d = 0; d <= 9; d++) {
      ones.add(digit(selectors, "[0-9]*" + d, d));
      if (d > 0) {
        tens.add(digit(selectors, "[0-9]*" + d + "[0-9]", 10 * d));
      }
    }
    String one = "(" + String.join(" or ", ones) + ")";
    return one + " + ((" + String.join(" or ", tens) + ") or " + one + " * 0)";
  }

  private static String digit(List<String> selectors, String regex, int value) {
    List<String> sel = new ArrayList<>();
    for (String s : selectors) {
      sel.add(withMatcher(s, "max_lora=~\"" + regex + "\""));
    }
    return "group by (" + TARGET + ") (" + String.join(" or ", sel) + ") * " + value;
  }

  private static final Pattern META = Pattern.compile("[\\\\.+*?()|\\[\\]{}^$]");

  /** {@code s} as a regular expression matching it literally (RE2 and Java alike). */
  static String escape(String s) {
    return META.matcher(s).replaceAll(m -> Matcher.quoteReplacement("\\" + m.group()));
  }

  /** {@code selector} with one more matcher. */
  static String withMatcher(String selector, String matcher) {
    return selector.endsWith("}")
        ? selector.substring(0, selector.length() - 1) + ", " + matcher + "}"
        : selector + "{" + matcher + "}";
  }
}
