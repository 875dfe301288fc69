package dev.infermon.llm.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The signals diagnosis reads per pod, by the names reports give them, and which of them a pod's
 * window could not read. Speculative decoding is left out: its families exist only with {@code
 * --speculative-config} (the catalog's condition), so their absence says the flag is off, not that
 * something was missed. Stateless.
 */
final class Readings {
  private Readings() {}

  /**
   * One signal as reports name it, read when any of its keys has a point in the window.
   *
   * @param name the report's name ({@code queue time})
   * @param keys the {@link Signals} keys; one ending in {@code _} matches every key it starts
   */
  record Reading(String name, List<String> keys) {
    Reading(String name, String... keys) {
      this(name, List.of(keys));
    }

    boolean readOn(Signals.Series s) {
      for (Map.Entry<String, double[]> e : s.values.entrySet()) {
        for (String k : keys) {
          boolean match = k.endsWith("_") ? e.getKey().startsWith(k) : e.getKey().equals(k);
          if (match && Window.defined(e.getValue()) > 0) {
            return true;
          }
        }
      }
      return false;
    }
  }

  static final Reading RUNNING = new Reading("requests running", "running");
  static final Reading WAITING = new Reading("requests waiting", "waiting");
  static final Reading WAITING_BY_REASON = new Reading("waiting by reason", "waiting_");
  static final Reading KV = new Reading("KV cache usage", "kv");
  static final Reading PREEMPTIONS = new Reading("preemptions", "preemptions");
  static final Reading TTFT = new Reading("TTFT", "ttft");
  static final Reading ITL = new Reading("inter-token latency", "itl_mean");
  static final Reading QUEUE_TIME = new Reading("queue time", "queue_time");
  static final Reading PREFILL_TIME = new Reading("prefill time", "prefill_time");
  static final Reading PROMPT_LENGTH = new Reading("prompt length", "prompt_len");
  static final Reading PREFIX_CACHE = new Reading("prefix cache", "prefix_hit");
  static final Reading SUCCESS = new Reading("success ratio", "success");
  static final Reading FINISH_REASONS = new Reading("finish reasons", "finished_");
  static final Reading GPU_ACTIVITY =
      new Reading("GPU activity", "sm_active", "tensor_active", "gpu_util");
  static final Reading GPU_MEMORY = new Reading("GPU memory", "gpu_memory");
  static final Reading RESTARTS = new Reading("process start time", "restarts");

  /** Every signal of a pod, in report order. */
  static final List<Reading> ALL =
      List.of(
          RUNNING,
          WAITING,
          WAITING_BY_REASON,
          KV,
          PREEMPTIONS,
          TTFT,
          ITL,
          QUEUE_TIME,
          PREFILL_TIME,
          PROMPT_LENGTH,
          PREFIX_CACHE,
          SUCCESS,
          FINISH_REASONS,
          GPU_ACTIVITY,
          GPU_MEMORY,
          RESTARTS);

  /** What the states that explain {@code s} read: the signals whose absence leaves it open. */
  static List<Reading> causesOf(Symptom s) {
    switch (s) {
      case TTFT_HIGH:
        return List.of(
            WAITING,
            RUNNING,
            KV,
            PREEMPTIONS,
            WAITING_BY_REASON,
            GPU_ACTIVITY,
            QUEUE_TIME,
            PREFILL_TIME,
            PROMPT_LENGTH,
            PREFIX_CACHE);
      case QUEUED_WHILE_PREEMPTING:
        return List.of(WAITING, RUNNING, KV, PREEMPTIONS, WAITING_BY_REASON, GPU_ACTIVITY);
      case FAILURES_HIGH:
        return List.of(SUCCESS, FINISH_REASONS);
      case ITL_HIGH:
        return List.of(RUNNING, KV, PREEMPTIONS);
      default:
        throw new AssertionError(s);
    }
  }

  /** The names of {@code of} that {@code s} could not read, in the order given. */
  static List<String> notRead(Signals.Series s, List<Reading> of) {
    List<String> out = new ArrayList<>();
    for (Reading r : of) {
      if (!r.readOn(s)) {
        out.add(r.name());
      }
    }
    return out;
  }

  /** Per pod, every signal it could not read; pods that read all are left out. */
  static List<NotMeasured> notMeasured(Map<String, Signals.Series> pods) {
    List<NotMeasured> out = new ArrayList<>();
    for (Signals.Series s : pods.values()) {
      if (s.model.isEmpty()) {
        continue;
      }
      List<String> missing = notRead(s, ALL);
      if (!missing.isEmpty()) {
        out.add(new NotMeasured(s.model, s.namespace, s.pod, missing));
      }
    }
    return out;
  }
}
