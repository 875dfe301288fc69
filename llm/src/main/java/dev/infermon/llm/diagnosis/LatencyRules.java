package dev.infermon.llm.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The latency states that hold without a queue: a first token slow because prefill is (long
 * prompts, prefill time over queue time, few prefix-cache hits), and tokens streaming slowly
 * because decode is (a large batch, speculative drafts mostly rejected). Each is judged only on a
 * pod that shows the symptom and whose symptom no queue state already explains, and names which of
 * its signals show the cause and which could not be read. Not thread-safe; lives for one diagnosis.
 */
final class LatencyRules {
  private final Thresholds t;
  private final Window w;
  private final Symptoms symptoms;

  LatencyRules(Thresholds t, Window w, Symptoms symptoms) {
    this.t = t;
    this.w = w;
    this.symptoms = symptoms;
  }

  /** The latency findings for {@code s}, given the findings of the queue chain so far. */
  List<Finding> findings(Signals.Series s, List<Finding> found) {
    List<Finding> out = new ArrayList<>();
    if (symptoms.seen(Symptom.TTFT_HIGH, s, false) && !explained(s, Symptom.TTFT_HIGH, found)) {
      Finding f = prefillBound(s);
      if (f != null) {
        out.add(f);
      }
    }
    if (symptoms.seen(Symptom.ITL_HIGH, s, false) && !explained(s, Symptom.ITL_HIGH, found)) {
      Finding f = decodeBound(s);
      if (f != null) {
        out.add(f);
      }
    }
    return out;
  }

  private static boolean explained(Signals.Series s, Symptom symptom, List<Finding> found) {
    for (Finding f : found) {
      boolean here =
          f.model().equals(s.model)
              && f.namespace().equals(s.namespace)
              && (f.pod().isEmpty() || f.pod().equals(s.pod));
      if (here && f.state().explains().contains(symptom)) {
        return true;
      }
    }
    return false;
  }

  private static double mean(Signals.Series s, String key) {
    double[] v = s.get(key);
    return v == null ? Double.NaN : Window.mean(v);
  }

  /** TTFT over the pack's limit with a short queue, and at least one prefill cause showing. */
  private Finding prefillBound(Signals.Series s) {
    double waiting = mean(s, "waiting");
    if (waiting >= t.queueLong()) {
      return null; // a queue the queue chain did not explain: left to cause-not-found
    }
    double queue = mean(s, "queue_time");
    double prefill = mean(s, "prefill_time");
    double ttft = mean(s, "ttft_mean");
    double prompt = mean(s, "prompt_len");
    double hits = mean(s, "prefix_hit");
    List<String> shows = new ArrayList<>();
    // prefill dominates when it is most of the first token's wait and far more than the queue's
    if (prefill >= t.prefillShare() * ttft && prefill >= t.prefillDominance() * queue) {
      shows.add(
          "prefill takes "
              + Symptoms.num(prefill)
              + " s of the "
              + Symptoms.num(ttft)
              + " s to the first token on average, the queue "
              + Symptoms.num(queue)
              + " s");
    }
    if (prompt >= t.promptLong()) {
      shows.add(String.format(Locale.ROOT, "prompts average %.0f tokens", prompt));
    }
    if (hits < t.prefixLow()) {
      shows.add(
          String.format(
              Locale.ROOT, "the prefix cache serves %.0f%% of prompt tokens", hits * 100));
    }
    if (shows.isEmpty()) {
      return null;
    }
    String summary =
        String.format(
                Locale.ROOT,
                "TTFT p%s up to %s s with %s requests waiting on average: ",
                Symptoms.percent(t.alerts().ttftQuantile()),
                Symptoms.num(Window.max(s.get("ttft"))),
                Double.isNaN(waiting) ? "no count of" : String.format(Locale.ROOT, "%.1f", waiting))
            + String.join("; ", shows);
    List<Evidence> ev = new ArrayList<>();
    add(ev, s, "ttft", "TTFT p" + Symptoms.percent(t.alerts().ttftQuantile()) + " (s)", true);
    add(ev, s, "prefill_time", "prefill time mean (s)", true);
    add(ev, s, "ttft_mean", "TTFT mean (s)", true);
    add(ev, s, "queue_time", "queue time mean (s)", true);
    add(ev, s, "prompt_len", "prompt length mean (tokens)", true);
    add(ev, s, "prefix_hit", "prefix-cache hit rate", false);
    add(ev, s, "waiting", "requests waiting", true);
    List<Readings.Reading> needs =
        List.of(
            Readings.WAITING,
            Readings.QUEUE_TIME,
            Readings.PREFILL_TIME,
            Readings.PROMPT_LENGTH,
            Readings.PREFIX_CACHE);
    return new Finding(
        State.PREFILL_BOUND,
        s.model,
        s.namespace,
        s.pod,
        summary,
        ev,
        List.of(),
        Readings.notRead(s, needs));
  }

  /** ITL over its limit with a large batch or low speculative-decoding acceptance. */
  private Finding decodeBound(Signals.Series s) {
    List<String> shows = new ArrayList<>();
    double[] running = s.get("running");
    double batch = running == null ? Double.NaN : Window.median(running);
    if (batch >= t.batchLarge()) {
      shows.add(String.format(Locale.ROOT, "%.0f requests decode in the batch (median)", batch));
    }
    String spec = specKey(s);
    double acceptance = spec == null ? Double.NaN : positiveMean(s.get(spec));
    if (acceptance < t.specAcceptLow()) {
      shows.add(
          String.format(
              Locale.ROOT,
              "speculative decoding accepts %.0f%% of the drafted tokens",
              acceptance * 100));
    }
    if (shows.isEmpty()) {
      return null;
    }
    String summary =
        "mean inter-token latency up to "
            + Symptoms.num(Window.max(s.get("itl_mean")))
            + " s: "
            + String.join("; ", shows);
    List<Evidence> ev = new ArrayList<>();
    add(ev, s, "itl_mean", "ITL mean (s)", true);
    add(ev, s, "running", "requests running", true);
    if (spec != null) {
      add(ev, s, spec, "speculative-decoding acceptance", false);
    }
    return new Finding(
        State.DECODE_BOUND,
        s.model,
        s.namespace,
        s.pod,
        summary,
        ev,
        List.of(),
        Readings.notRead(s, List.of(Readings.RUNNING)));
  }

  /**
   * The acceptance signal a pod has: vLLM's ratio of the accepted to the drafted token counters,
   * else the engine's gauge (SGLang, vLLM V0).
   */
  private static String specKey(Signals.Series s) {
    for (String k : List.of("spec_accept", "spec_accept_gauge")) {
      if (s.get(k) != null && Window.defined(s.get(k)) > 0) {
        return k;
      }
    }
    return null;
  }

  /**
   * The mean of the positive points: SGLang's gauge reads 0 for a log window without a speculative
   * forward (sglang.md §2.4), which is no acceptance measured, not none accepted.
   */
  private static double positiveMean(double[] v) {
    double sum = 0;
    int n = 0;
    for (double x : v) {
      if (x > 0) {
        sum += x;
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  /** The evidence of {@code key}: at its maximum ({@code max}), else at its minimum. */
  private void add(List<Evidence> ev, Signals.Series s, String key, String what, boolean max) {
    double[] v = s.get(key);
    int i = v == null ? -1 : max ? Window.argMax(v) : Window.argMin(v);
    if (i < 0) {
      return;
    }
    ev.add(
        new Evidence(
            what,
            s.queries.getOrDefault(key, ""),
            s.series(),
            v[i],
            w.time(i),
            max ? "max over the window" : "lowest in the window"));
  }
}
