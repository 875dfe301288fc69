package dev.infermon.simulator.vllm;

import dev.infermon.simulator.text.Families;
import dev.infermon.simulator.text.PythonFamilies.Child;
import java.util.ArrayList;
import java.util.List;

/**
 * The gauges LMCache's {@code PrometheusLogger._dynamic_metrics} registers (LMCache/LMCache
 * lmcache/observability.py @ 0353be82), in its order, with their documentation and
 * multiprocess_mode. {@code _create_dynamic_gauge} binds each one's child at start-up, which writes
 * 0.0 into the process's gauge file; their values come from set_function callbacks, which
 * prometheus_client's multiprocess mode never calls, so on vLLM's page they stay 0.
 */
final class LmcacheDynamicGauges {
  private LmcacheDynamicGauges() {}

  /** One gauge: name without {@code lmcache:}, documentation, whether its mode is {@code sum}. */
  private record Gauge(String name, String help, boolean sum) {}

  private static final List<Gauge> ALL = all();

  private static List<Gauge> all() {
    List<Gauge> g = new ArrayList<>();
    g.add(live("local_cpu_hot_cache_count", "The size of the hot_cache"));
    g.add(live("local_cpu_keys_in_request_count", "The size of the keys_in_request"));
    g.add(live("kv_msg_queue_size", "The size of the KV message queue in BatchedMessageSender"));
    g.add(live("remote_put_task_num", "The number of remote put tasks"));
    g.add(live("pin_monitor_pinned_objects_count", "The number of pinned objects in PinMonitor"));
    g.add(live("lmcache_is_healthy", "The health status of LMCache (1=healthy, 0=unhealthy)"));
    g.add(live("get_blocking_failed_count", "The number of get blocking failed"));
    g.add(live("put_failed_count", "The number of put failed"));
    for (String status : List.of("ongoing", "done", "not_found")) {
      g.add(
          new Gauge(
              "storage_events_" + status + "_count",
              "The number of " + status.replace('_', ' ') + " events",
              true));
    }
    g.add(live("chunk_statistics_enabled", "Whether chunk statistics collection is enabled"));
    g.add(
        live(
            "chunk_statistics_total_requests",
            "Total number of requests processed by chunk statistics"));
    g.add(live("chunk_statistics_total_chunks", "Total number of chunks processed"));
    g.add(live("chunk_statistics_unique_chunks", "Number of unique chunks (estimated)"));
    g.add(live("chunk_statistics_reuse_rate", "Chunk reuse rate (0.0 to 1.0)"));
    g.add(live("chunk_statistics_bloom_filter_size_mb", "Bloom Filter memory usage in MB"));
    g.add(live("chunk_statistics_bloom_filter_fill_rate", "Bloom Filter fill rate (0.0 to 1.0)"));
    g.add(live("chunk_statistics_file_count", "Number of files created for file_hash strategy"));
    g.add(
        live(
            "chunk_statistics_current_file_size",
            "Current file size in bytes for file_hash strategy"));
    for (String c :
        List.of(
            "scheduler_unfinished_requests_count",
            "connector_load_specs_count",
            "connector_request_trackers_count",
            "connector_kv_caches_count",
            "connector_layerwise_retrievers_count",
            "connector_invalid_block_ids_count",
            "connector_requests_priority_count")) {
      g.add(live(c, "The count of " + c.replace('_', ' ')));
    }
    g.add(live("periodic_threads_total_count", "Total number of registered periodic threads"));
    g.add(live("periodic_threads_running_count", "Number of running periodic threads"));
    g.add(
        live(
            "periodic_threads_active_count",
            "Number of active periodic threads (recently executed)"));
    for (String level : List.of("critical", "high", "medium", "low")) {
      String p = "periodic_threads_" + level;
      g.add(live(p + "_total", "Total number of " + level + " level periodic threads"));
      g.add(live(p + "_running", "Number of running " + level + " level periodic threads"));
      g.add(live(p + "_active", "Number of active " + level + " level periodic threads"));
    }
    return List.copyOf(g);
  }

  private static Gauge live(String name, String help) {
    return new Gauge(name, help, false);
  }

  /** How many there are. */
  static int count() {
    return ALL.size();
  }

  /** Writes each gauge's child at 0.0 into the worker's livemostrecent or sum gauge file. */
  static void bind(Families live, Families sum, String[] labels) {
    for (Gauge g : ALL) {
      (g.sum() ? sum : live)
          .gauge("lmcache:" + g.name(), g.help(), List.of(new Child(labels, 0, 0)));
    }
  }
}
