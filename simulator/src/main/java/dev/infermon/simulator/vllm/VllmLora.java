package dev.infermon.simulator.vllm;

import dev.infermon.simulator.model.Request;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One engine's LoRA state as vLLM tracks it for {@code vllm:lora_requests_info}: the requests of
 * each adapter that wait and run (the ground truth), the two adapter lists vLLM derives from them,
 * and the gauge's children. vLLM's {@code PrometheusStatLogger.record} sets {@code labels(max_lora,
 * waiting_lora_adapters, running_lora_adapters).set_to_current_time()} each time it records the
 * stats; prometheus_client never removes a child, so every combination seen since start stays on
 * the page with the time it was last current (vllm-project/vllm vllm/v1/metrics/loggers.py @
 * 005a810b).
 *
 * <p>What the lists hold depends on the release (the catalog's {@code lora_requests_info} note):
 * {@link Lists#BY_STATE}, the IterationStats era ({@code LoRARequestStates.update_iteration_stats}
 * of vllm/v1/metrics/stats.py @ 28ed1fb8: an adapter is listed as waiting while it has a waiting
 * request and as running while it has a running one; an adapter keeps its place in the dict for
 * ever); {@link Lists#IN_FLIGHT}, the SchedulerStats era ({@code LoRARequestStates(log_stats)},
 * vllm/v1/engine/output_processor.py @ d0782260: an adapter's entry is deleted when it has no
 * request left, and both lists name every adapter with a request in flight, in the order it got its
 * first one). Not thread-safe.
 */
public final class VllmLora {
  /** Which of vLLM's two ways of filling the lists. */
  public enum Lists {
    BY_STATE,
    IN_FLIGHT
  }

  /** One child of the gauge: its label values and the time it was last set (epoch seconds). */
  record Child(String waiting, String running, double setAt) {}

  private final Lists lists;
  private final String maxLora;

  /** adapter -> {waiting, running}, in vLLM's dict order. */
  private final LinkedHashMap<String, int[]> adapters = new LinkedHashMap<>();

  /** request id -> whether it runs (false: waits), for the requests of an adapter. */
  private final Map<Long, Boolean> running = new HashMap<>();

  /** "waiting|running" -> child, in creation order (prometheus_client's). */
  private final LinkedHashMap<String, Child> children = new LinkedHashMap<>();

  VllmLora(Lists lists, int maxLoras) {
    this.lists = lists;
    this.maxLora = Integer.toString(maxLoras);
  }

  /**
   * The state of an engine of {@code release} with {@code --max-loras maxLoras}: the current page
   * fills both lists with the adapters in flight (vLLM 0.29.0's line reads {@code
   * running_lora_adapters="alpaca",waiting_lora_adapters="alpaca"}), the 0.11 page by state.
   *
   * @throws IllegalArgumentException for 0.4.3, older than the gauge (PR #9477, ~0.6)
   */
  public static VllmLora forRelease(VllmRelease release, int maxLoras) {
    switch (release) {
      case V1_CURRENT:
        return new VllmLora(Lists.IN_FLIGHT, maxLoras);
      case V0_11:
        return new VllmLora(Lists.BY_STATE, maxLoras);
      default:
        throw new IllegalArgumentException(
            "vLLM " + release.version() + " has no lora_requests_info (from ~0.6, PR #9477)");
    }
  }

  void queued(Request r) {
    move(r, Boolean.FALSE);
  }

  void scheduled(Request r) {
    move(r, Boolean.TRUE);
  }

  void preempted(Request r) {
    move(r, Boolean.FALSE);
  }

  void finished(Request r) {
    move(r, null);
  }

  private void move(Request r, Boolean runs) {
    if (r.adapter() == null) {
      return;
    }
    int[] n = adapters.computeIfAbsent(r.adapter(), a -> new int[2]);
    Boolean was = runs == null ? running.remove(r.id()) : running.put(r.id(), runs);
    if (was != null) {
      n[was ? 1 : 0]--;
    }
    if (runs != null) {
      n[runs ? 1 : 0]++;
    }
    if (lists == Lists.IN_FLIGHT && n[0] == 0 && n[1] == 0) {
      adapters.remove(r.adapter()); // LoRARequestStates._request_update: del when empty
    }
  }

  /** Records the stats as the stat logger does at the end of an engine step. */
  void record(double now) {
    String w = list(0);
    String r = list(1);
    children.put(w + "|" + r, new Child(w, r, now));
  }

  private String list(int state) {
    List<String> out = new ArrayList<>();
    adapters.forEach(
        (name, n) -> {
          if (lists == Lists.IN_FLIGHT || n[state] > 0) {
            out.add(name);
          }
        });
    return String.join(",", out);
  }

  /** {@code --max-loras} as the label writes it. */
  String maxLora() {
    return maxLora;
  }

  /** The gauge's children, in creation order. */
  List<Child> children() {
    return List.copyOf(children.values());
  }

  /** How the lists are filled. */
  public Lists lists() {
    return lists;
  }

  /** Requests of {@code adapter} waiting now (ground truth). */
  public int waiting(String adapter) {
    int[] n = adapters.get(adapter);
    return n == null ? 0 : n[0];
  }

  /** Requests of {@code adapter} running now (ground truth). */
  public int running(String adapter) {
    int[] n = adapters.get(adapter);
    return n == null ? 0 : n[1];
  }

  /** The adapters the page's newest series lists as running, as recorded last. */
  public List<String> runningList() {
    return split(1);
  }

  /** The adapters the page's newest series lists as waiting, as recorded last. */
  public List<String> waitingList() {
    return split(0);
  }

  private List<String> split(int state) {
    Child last = null;
    for (Child c : children.values()) {
      last = last == null || c.setAt() >= last.setAt() ? c : last;
    }
    String s = last == null ? "" : state == 0 ? last.waiting() : last.running();
    return s.isEmpty() ? List.of() : List.of(s.split(","));
  }
}
