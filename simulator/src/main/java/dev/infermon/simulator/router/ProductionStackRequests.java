package dev.infermon.simulator.router;

import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PythonFamilies;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What production-stack's router records per request it forwarded (services/request_service/
 * request.py process_request @ a6c01db0): {@code vllm:request_latency_seconds{server, model,
 * status}} observed in its {@code finally} for every request, from the router's start of the
 * request to the end of the engine's stream (#940); {@code vllm:input_tokens_total} and {@code
 * vllm:output_tokens_total{server, model}} from the response's {@code usage}, for a non-streaming
 * request that completed (#813). The simulated clients send non-streaming requests. {@code status}
 * is {@code error} when the engine answered HTTP 400 or more (a request the engine refused or
 * failed, {@link FinishReason#ERROR}); a client that went away cancels the router's task with
 * {@code asyncio.CancelledError}, which {@code except Exception} does not catch, so an aborted
 * request is observed as {@code success} and has no usage. {@code vllm:request_errors_total} counts
 * only exceptions raised while talking to the backend; the simulated restart drops a pod's requests
 * without the router hearing, so it has no children. A child's {@code _created} is when it was
 * first used, as prometheus_client's {@code labels()} creates it. Not thread-safe.
 */
final class ProductionStackRequests {
  /** metrics_service/__init__.py's buckets of {@code vllm:request_latency_seconds}, seconds. */
  static final double[] LATENCY_BUCKETS = {
    0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0
  };

  /**
   * The router's own time per request, seconds: parsing the body, choosing the backend, opening the
   * connection (a simulation choice; the sources give no figure).
   */
  static final double OVERHEAD_SECONDS = 0.002;

  /** How long {@link #latencies} remembers a request, seconds. */
  static final double REMEMBER_SECONDS = 900;

  private record Key(VllmPod pod, String model, String status) {}

  private record Tokens(double[] counts, double created) {}

  private final Map<Key, HistogramChild> latency = new LinkedHashMap<>();
  private final Map<Key, Tokens> tokens = new LinkedHashMap<>();
  private final Map<String, Deque<double[]>> recent = new LinkedHashMap<>();
  private final Map<VllmPod, Deque<double[]>> window = new java.util.HashMap<>();

  /**
   * {@code vllm:avg_latency} of {@code pod}: request_stats.py's latency MovingAverageMonitor, the
   * mean latency of the requests that completed within the window (60 s) before the last one to
   * complete (it prunes only on an update), -1 before any completed.
   */
  double averageLatency(VllmPod pod) {
    Deque<double[]> d = window.get(pod);
    if (d == null || d.isEmpty()) {
      return -1;
    }
    double sum = 0;
    for (double[] x : d) {
      sum += x[1];
    }
    return sum / d.size();
  }

  /** Request {@code r}, forwarded to {@code pod}, left its engine at {@code now}. */
  void finished(VllmPod pod, Request r, FinishReason reason, double now) {
    String model = pod.info().model();
    String status = reason == FinishReason.ERROR ? "error" : "success";
    double seconds = now - r.arrival() + OVERHEAD_SECONDS;
    latency
        .computeIfAbsent(
            new Key(pod, model, status),
            k -> new HistogramChild(null, new Histogram(LATENCY_BUCKETS), now))
        .histogram()
        .observe(seconds);
    Deque<double[]> d = recent.computeIfAbsent(model, m -> new ArrayDeque<>());
    d.addLast(new double[] {now, seconds});
    while (d.peekFirst()[0] < now - REMEMBER_SECONDS) {
      d.removeFirst();
    }
    if (reason != FinishReason.ABORT) {
      // on_request_complete runs when the response was read to its end, an error answer too
      Deque<double[]> w = window.computeIfAbsent(pod, p -> new ArrayDeque<>());
      w.addLast(new double[] {now, seconds});
      while (w.peekFirst()[0] < now - ProductionStackRouter.WINDOW_SECONDS) {
        w.removeFirst();
      }
    }
    if (reason == FinishReason.STOP || reason == FinishReason.LENGTH) {
      double[] n =
          tokens
              .computeIfAbsent(new Key(pod, model, ""), k -> new Tokens(new double[2], now))
              .counts();
      n[0] += r.promptTokens();
      n[1] += r.generated();
    }
  }

  /**
   * The ground truth behind the latency histogram: what the router observed for {@code model}'s
   * requests that finished in {@code (from, to]} (epoch seconds, at most 15 minutes back), seconds.
   */
  List<Double> latencies(String model, double from, double to) {
    List<Double> out = new ArrayList<>();
    for (double[] d : recent.getOrDefault(model, new ArrayDeque<>())) {
      if (d[0] > from && d[0] <= to) {
        out.add(d[1]);
      }
    }
    return out;
  }

  /** The four families, in metrics_service/__init__.py's order. */
  void write(PythonFamilies f, Function<VllmPod, String> urls) {
    List<Child> input = new ArrayList<>();
    List<Child> output = new ArrayList<>();
    tokens.forEach(
        (k, t) -> {
          String[] labels = {"server", urls.apply(k.pod()), "model", k.model()};
          input.add(new Child(labels, t.counts()[0], t.created()));
          output.add(new Child(labels, t.counts()[1], t.created()));
        });
    f.counter("vllm:input_tokens", "Total input tokens processed", input);
    f.counter("vllm:output_tokens", "Total output tokens generated", output);
    f.counter("vllm:request_errors", "Total request errors", List.of());
    List<HistogramChild> children = new ArrayList<>();
    latency.forEach(
        (k, c) ->
            children.add(
                new HistogramChild(
                    new String[] {
                      "server", urls.apply(k.pod()), "model", k.model(), "status", k.status()
                    },
                    c.histogram(),
                    c.created())));
    f.histogram(
        "vllm:request_latency_seconds",
        "End-to-end request latency observed at the router",
        children);
  }
}
