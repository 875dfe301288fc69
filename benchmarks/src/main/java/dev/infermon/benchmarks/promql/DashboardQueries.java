package dev.infermon.benchmarks.promql;

import java.util.List;

/** The queries the LLM dashboard runs, by kind (the goal differs per kind). */
final class DashboardQueries {
  private DashboardQueries() {}

  /** What a query mostly does; aggregations and histogram_quantile have the stricter goal. */
  enum Kind {
    RATE,
    AGGREGATION,
    HISTOGRAM_QUANTILE,
    RATIO
  }

  record Query(String name, Kind kind, String promql) {}

  static final List<Query> ALL =
      List.of(
          new Query("request rate per series", Kind.RATE, "rate(vllm:request_success_total[5m])"),
          new Query(
              "requests/s by model",
              Kind.AGGREGATION,
              "sum by (model_name) (rate(vllm:request_success_total[5m]))"),
          new Query(
              "tokens/s by pod",
              Kind.AGGREGATION,
              "sum by (pod) (rate(vllm:generation_tokens_total[5m]))"),
          new Query(
              "KV cache use by model",
              Kind.AGGREGATION,
              "avg by (model_name) (vllm:kv_cache_usage_perc)"),
          new Query(
              "TTFT p95 by model",
              Kind.HISTOGRAM_QUANTILE,
              "histogram_quantile(0.95, sum by (le, model_name)"
                  + " (rate(vllm:time_to_first_token_seconds_bucket[5m])))"),
          new Query(
              "e2e p99 by pod",
              Kind.HISTOGRAM_QUANTILE,
              "histogram_quantile(0.99, sum by (le, pod)"
                  + " (rate(vllm:e2e_request_latency_seconds_bucket[5m])))"),
          new Query(
              "success ratio by model",
              Kind.RATIO,
              "sum by (model_name) (rate(vllm:request_success_total{finished_reason=\"stop\"}[5m]))"
                  + " / sum by (model_name) (rate(vllm:request_success_total[5m]))"),
          new Query(
              "mean TTFT by model",
              Kind.RATIO,
              "sum by (model_name) (rate(vllm:time_to_first_token_seconds_sum[5m]))"
                  + " / sum by (model_name) (rate(vllm:time_to_first_token_seconds_count[5m]))"));
}
