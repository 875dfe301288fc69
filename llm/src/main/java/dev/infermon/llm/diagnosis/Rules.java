package dev.infermon.llm.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Decides the states from one window's signals; they are ranked by {@link State}'s order, which is
 * defined there only. A queue is explained by saturation: the batch pinned near its ceiling, or
 * held at the KV cache's ceiling by the load with preemptions rare (under overload the cache is
 * full because the batch is; both states are then found); by KV pressure (KV full, preemptions); by
 * configuration (deferred requests); or by an idle GPU (batch or KV settings). A batch pinned at
 * the ceiling of a cache that keeps preempting is KV pressure alone: the cache holds no more
 * requests. Latency outliers, errors, GPU memory, prefill/decode imbalance and restarts are judged
 * independently; slow first tokens and slow streaming that no queue explains go to {@link
 * LatencyRules}; last, {@link Symptoms} ties the symptoms seen to the findings and reports those
 * left unexplained. Not thread-safe; lives for one diagnosis.
 */
final class Rules {
  private final Thresholds t;
  private final Window w;
  private final Map<String, Signals.Series> pods;
  private final Map<String, Signals.Series> models;
  private final Symptoms symptoms;
  private final FailureRules failures;
  private final List<Finding> out = new ArrayList<>();

  Rules(
      Thresholds t,
      Window w,
      Map<String, Signals.Series> pods,
      Map<String, Signals.Series> models) {
    this.t = t;
    this.w = w;
    this.pods = pods;
    this.models = models;
    this.symptoms = new Symptoms(t, w);
    this.failures = new FailureRules(t, w, symptoms);
  }

  List<Finding> findings() {
    for (Signals.Series s : pods.values()) {
      if (s.model.isEmpty()) {
        continue;
      }
      queue(s);
      asleep(s);
      Finding failing = failures.errorsRising(s);
      if (failing != null) {
        out.add(failing);
      }
      gpuMemory(s);
      restarted(s);
    }
    slowPods();
    prefillDecode();
    LatencyRules latency = new LatencyRules(t, w, symptoms);
    List<Finding> chain = List.copyOf(out);
    for (Signals.Series s : pods.values()) {
      if (!s.model.isEmpty()) {
        out.addAll(latency.findings(s, chain));
      }
    }
    return symptoms.explain(out, pods, models);
  }

  /** Saturated, KV pressure, deferred by configuration, idle GPU with a long queue. */
  private void queue(Signals.Series s) {
    double[] waiting = s.get("waiting");
    double[] running = s.get("running");
    double[] kv = s.get("kv");
    double[] preempt = s.get("preemptions");
    boolean kvPressure = false;
    if (kv != null && preempt != null) {
      double share = Window.share(kv, x -> x >= t.kvHigh());
      double preemptions = Window.max(preempt);
      if (share >= t.kvShare() && preemptions > 0) {
        kvPressure = true;
        add(
            s,
            State.KV_PRESSURE,
            String.format(
                Locale.ROOT,
                "KV cache at or above %.0f%% in %.0f%% of the window, with up to %.2f preemptions/s",
                t.kvHigh() * 100,
                share * 100,
                preemptions),
            ev(s, "kv", "KV cache usage", "max over the window", Window.argMax(kv)),
            ev(
                s,
                "preemptions",
                "preemptions per second",
                "max over the window",
                Window.argMax(preempt)),
            ev(s, "waiting", "requests waiting", "max over the window", argMax(waiting)));
      }
    }
    if (waiting == null) {
      return;
    }
    double meanWaiting = Window.mean(waiting);
    if (Double.isNaN(meanWaiting)) {
      return;
    }
    double[] deferred = s.get("waiting_deferred");
    if (deferred != null) {
      double d = Window.mean(deferred);
      if (d >= 1 && d >= t.deferredShare() * meanWaiting) {
        add(
            s,
            State.DEFERRED_BY_CONFIG,
            String.format(
                Locale.ROOT,
                "%.0f%% of the waiting requests (%.1f on average) wait as deferred, not for capacity",
                100 * d / Math.max(meanWaiting, 1e-9),
                d),
            ev(
                s,
                "waiting_deferred",
                "requests waiting as deferred",
                "max over the window",
                Window.argMax(deferred)),
            ev(s, "waiting", "requests waiting", "max over the window", Window.argMax(waiting)));
        return;
      }
    }
    int third = Math.max(1, waiting.length / 3);
    double growth =
        Window.mean(waiting, waiting.length - third, waiting.length)
            - Window.mean(waiting, 0, third);
    boolean longQueue = meanWaiting >= t.queueLong() || growth >= t.queueGrowth();
    if (!longQueue) {
      return;
    }
    String gpuSignal = gpuActivity(s);
    if (gpuSignal != null) {
      double activity = Window.mean(s.get(gpuSignal));
      if (activity < t.gpuIdle() && !kvPressure) {
        add(
            s,
            State.IDLE_GPU_LONG_QUEUE,
            String.format(
                Locale.ROOT,
                "%.1f requests wait on average while %s averages %.0f%%: the batch or KV settings"
                    + " cap the GPU, not the load",
                meanWaiting,
                gpuSignal.replace('_', ' '),
                activity),
            ev(s, "waiting", "requests waiting", "max over the window", Window.argMax(waiting)),
            ev(
                s,
                gpuSignal,
                gpuSignal.replace('_', ' ') + " (percent)",
                "max over the window",
                Window.argMax(s.get(gpuSignal))),
            ev(s, "running", "requests running", "max over the window", argMax(running)));
        return;
      }
    }
    if (running != null) {
      double maxRunning = Window.max(running);
      double medianRunning = Window.median(running);
      double perFinished = preemptionsPerFinished(s);
      // pinned: the batch stays near its ceiling (a KV-bound batch swings far below it)
      boolean pinned = maxRunning > 0 && medianRunning >= t.pinnedShare() * maxRunning;
      // or filled to the cache's ceiling by the load: the cache is full because the batch is, and
      // it rarely preempts (a cache too small for its requests preempts them again and again)
      boolean loadFilled = kvFull(s) && perFinished < t.rarePreemptions();
      // a batch pinned at the ceiling of a cache that keeps preempting is the cache's ceiling
      boolean cacheBound = kvPressure && perFinished >= t.rarePreemptions();
      if ((pinned || loadFilled) && !cacheBound) {
        add(
            s,
            State.SATURATED,
            String.format(
                Locale.ROOT,
                "running %s (median %.0f, max %.0f) while %s",
                pinned
                    ? "pinned near its ceiling"
                    : String.format(
                        Locale.ROOT,
                        "held by a full KV cache with %.2f preemptions per finished request",
                        perFinished),
                medianRunning,
                maxRunning,
                queueTrend(growth, meanWaiting)),
            ev(s, "running", "requests running", "max over the window", Window.argMax(running)),
            ev(s, "waiting", "requests waiting", "max over the window", Window.argMax(waiting)),
            ev(s, "ttft", ttftLabel() + " (s)", "max over the window", argMax(s.get("ttft"))));
      }
    }
  }

  /** Whether KV usage is at or above its "full" mark in the KV-pressure share of the window. */
  private boolean kvFull(Signals.Series s) {
    double[] kv = s.get("kv");
    return kv != null && Window.share(kv, x -> x >= t.kvHigh()) >= t.kvShare();
  }

  /**
   * Preemptions per finished request over the window (their means' ratio): 0 without preemptions,
   * NaN when nothing finished or either is not read.
   */
  private static double preemptionsPerFinished(Signals.Series s) {
    double[] preempt = s.get("preemptions");
    double[] finished = s.get("finished");
    if (finished == null) {
      return Double.NaN;
    }
    double done = Window.mean(finished);
    double p = preempt == null ? Double.NaN : Window.mean(preempt);
    return done > 0 ? p / done : Double.NaN;
  }

  /**
   * How the queue moved over the window, in words: a queue that is long but shrinking is not
   * "growing by" a negative number.
   */
  static String queueTrend(double growth, double meanWaiting) {
    if (growth >= 0.05) {
      return String.format(
          Locale.ROOT, "waiting grew by %.1f (%.1f on average)", growth, meanWaiting);
    }
    if (growth <= -0.05) {
      return String.format(
          Locale.ROOT,
          "%.1f requests waited on average (the queue shrank by %.1f over the window)",
          meanWaiting,
          -growth);
    }
    return String.format(Locale.ROOT, "%.1f requests waited throughout", meanWaiting);
  }

  private static String gpuActivity(Signals.Series s) {
    for (String g : List.of("sm_active", "tensor_active", "gpu_util")) {
      if (s.get(g) != null && Window.defined(s.get(g)) > 0) {
        return g;
      }
    }
    return null;
  }

  private String ttftLabel() {
    return "TTFT p" + Symptoms.percent(t.alerts().ttftQuantile());
  }

  private void gpuMemory(Signals.Series s) {
    double[] mem = s.get("gpu_memory");
    if (mem == null) {
      return;
    }
    double max = Window.max(mem);
    if (max >= t.gpuMemoryFull()) {
      add(
          s,
          State.GPU_MEMORY_NEAR_FULL,
          String.format(Locale.ROOT, "GPU memory up to %.1f%% used", max * 100),
          ev(
              s,
              "gpu_memory",
              "GPU memory used / total",
              "max over the window",
              Window.argMax(mem)));
    }
  }

  /**
   * A vLLM engine put to sleep ({@code engine_sleep_state}): it serves nothing by choice, so its
   * empty queue and idle GPU are no fault. The aborts of the requests it dropped on falling asleep
   * (vLLM's default pause mode aborts them) are explained by it when the failure alert fires.
   */
  private void asleep(Signals.Series s) {
    double[] asleep = s.get("asleep");
    if (asleep == null || !(Window.max(asleep) > 0)) {
      return;
    }
    double share = Window.share(asleep, x -> x > 0);
    add(
        s,
        State.ASLEEP,
        String.format(
            Locale.ROOT,
            "%.0f engine(s) asleep for %.0f%% of the window: no requests admitted, the GPU idle by"
                + " choice",
            Window.max(asleep),
            share * 100),
        ev(s, "asleep", "engines asleep", "max over the window", Window.argMax(asleep)));
  }

  private void restarted(Signals.Series s) {
    double[] restarts = s.get("restarts");
    double[] down = s.get("down");
    double r = restarts == null ? Double.NaN : Window.max(restarts);
    double d = down == null ? Double.NaN : Window.max(down);
    if (r > 0) {
      add(
          s,
          State.RESTARTED,
          "the process start time changed: the engine restarted and its counters began again"
              + " from zero"
              + (d > 0 ? "; the target was down meanwhile" : ""),
          ev(
              s,
              "restarts",
              "process start time changes",
              "max over the window",
              Window.argMax(restarts)),
          ev(s, "down", "target down (1 - up)", "max over the window", argMax(down)));
    }
  }

  /** A pod whose latency is a multiple of its peers' (same model, same role). */
  private void slowPods() {
    Map<String, List<Signals.Series>> byModel = new LinkedHashMap<>();
    for (Signals.Series s : pods.values()) {
      if (!s.model.isEmpty() && !s.pod.isEmpty()) {
        byModel.computeIfAbsent(s.model + "|" + s.role, k -> new ArrayList<>()).add(s);
      }
    }
    for (List<Signals.Series> peers : byModel.values()) {
      for (String signal : List.of("itl_mean", "ttft")) {
        Map<Signals.Series, Double> med = new LinkedHashMap<>();
        for (Signals.Series s : peers) {
          double[] v = s.get(signal);
          if (v != null && Window.defined(v) > 0) {
            med.put(s, Window.median(v));
          }
        }
        if (med.size() < 3) {
          continue;
        }
        boolean found = false;
        for (Map.Entry<Signals.Series, Double> e : med.entrySet()) {
          List<Double> others = new ArrayList<>();
          med.forEach(
              (k, v) -> {
                if (k != e.getKey()) {
                  others.add(v);
                }
              });
          double peer = Window.median(others);
          // among healthy peers only: behind a shared queue, latency says nothing about the pod
          List<Double> peerQueues = new ArrayList<>();
          for (Signals.Series p : med.keySet()) {
            if (p != e.getKey() && p.get("waiting") != null) {
              peerQueues.add(Window.mean(p.get("waiting")));
            }
          }
          boolean peersHealthy = peerQueues.isEmpty() || Window.median(peerQueues) < t.queueLong();
          if (peersHealthy && peer > 0 && e.getValue() >= t.slowFactor() * peer) {
            found = true;
            Signals.Series s = e.getKey();
            add(
                s,
                State.SLOW_POD,
                String.format(
                    Locale.ROOT,
                    "%s median %.3g s is %.1fx the median of its %d peers serving %s (%.3g s)",
                    signal.equals("itl_mean") ? "mean inter-token latency" : ttftLabel(),
                    e.getValue(),
                    e.getValue() / peer,
                    others.size(),
                    s.model,
                    peer),
                ev(
                    s,
                    signal,
                    signal.equals("itl_mean") ? "ITL mean (s)" : ttftLabel() + " (s)",
                    "max over the window",
                    Window.argMax(s.get(signal))));
          }
        }
        if (found) {
          break;
        }
      }
    }
  }

  /** Prefill/decode pairs: which side holds the queue. */
  private void prefillDecode() {
    Map<String, double[]> prefill = new LinkedHashMap<>();
    Map<String, double[]> decode = new LinkedHashMap<>();
    Map<String, List<Signals.Series>> members = new LinkedHashMap<>();
    for (Signals.Series s : pods.values()) {
      double[] waiting = s.get("waiting");
      if (waiting == null || s.role.isEmpty()) {
        continue;
      }
      String key = s.model + "|" + s.namespace;
      members.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
      Map<String, double[]> side = s.role.equals("prefill") ? prefill : decode;
      side.merge(key, waiting.clone(), Rules::add);
    }
    for (Map.Entry<String, List<Signals.Series>> m : members.entrySet()) {
      double[] p = prefill.get(m.getKey());
      double[] d = decode.get(m.getKey());
      if (p == null || d == null) {
        continue;
      }
      double pw = Window.mean(p);
      double dw = Window.mean(d);
      String side = null;
      if (pw >= t.queueLong() && pw >= t.pdFactor() * dw + 1) {
        side = "prefill";
      } else if (dw >= t.queueLong() && dw >= t.pdFactor() * pw + 1) {
        side = "decode";
      }
      if (side == null) {
        continue;
      }
      List<Evidence> ev = new ArrayList<>();
      for (Signals.Series s : m.getValue()) {
        ev.add(
            ev(
                s,
                "waiting",
                "requests waiting (" + s.role + ")",
                "max over the window",
                Window.argMax(s.get("waiting"))));
      }
      Signals.Series first = m.getValue().get(0);
      out.add(
          new Finding(
              State.PD_BOTTLENECK,
              first.model,
              first.namespace,
              "",
              String.format(
                  Locale.ROOT,
                  "the %s side is the bottleneck: %.1f requests wait there on average against"
                      + " %.1f on the %s side",
                  side,
                  side.equals("prefill") ? pw : dw,
                  side.equals("prefill") ? dw : pw,
                  side.equals("prefill") ? "decode" : "prefill"),
              ev));
    }
  }

  private static double[] add(double[] a, double[] b) {
    double[] out = a.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] = Double.isNaN(out[i]) ? b[i] : Double.isNaN(b[i]) ? out[i] : out[i] + b[i];
    }
    return out;
  }

  private static int argMax(double[] v) {
    return v == null ? -1 : Window.argMax(v);
  }

  private void add(Signals.Series s, State state, String summary, Evidence... evidence) {
    List<Evidence> ev = new ArrayList<>();
    for (Evidence e : evidence) {
      if (e != null) {
        ev.add(e);
      }
    }
    out.add(new Finding(state, s.model, s.namespace, s.pod, summary, ev));
  }

  /** The evidence of signal {@code name} at index {@code i}, or null when there is no point. */
  private Evidence ev(Signals.Series s, String name, String what, String note, int i) {
    return s.evidence(name, what, note, i, w);
  }
}
