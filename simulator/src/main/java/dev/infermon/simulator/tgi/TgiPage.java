package dev.infermon.simulator.tgi;

import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.RustFloat;
import java.util.List;

/**
 * Renders a TGI router's {@code /metrics} page as the Rust crate metrics-exporter-prometheus 0.15
 * writes it (byte for byte the form of the capture {@code tgi-2.4-3.x_datadog-e2e.txt}): counters,
 * then gauges, then histograms and summaries; {@code # HELP} only for the families TGI describes
 * (the first description of a name wins), {@code # TYPE} always; an empty line after every family;
 * counters and counts as integers, other values and {@code le} bounds in Rust's shortest plain
 * notation; {@code le} after the other labels; no {@code _created} series and no model label. A
 * family appears once first recorded, so a router that has served nothing shows an empty page. The
 * families' order within each group and the methods' order within a family follow the capture (the
 * crate's own order is its registry's).
 */
public final class TgiPage {
  private static final String[] QUANTILES = {"0", "0.5", "0.9", "0.95", "0.99", "0.999", "1"};
  private static final String BY_METHOD = "per method (prefill or decode)";

  private TgiPage() {}

  /** The page of the router whose counters are {@code m}. */
  public static String render(TgiMetrics m) {
    StringBuilder out = new StringBuilder(64 * 1024);
    counters(out, m);
    gauges(out, m);
    distributions(out, m);
    return out.toString();
  }

  private static void counters(StringBuilder out, TgiMetrics m) {
    if (m.requestSuccess > 0) {
      family(out, "tgi_request_success", "Number of successful requests", "counter");
      line(out, "tgi_request_success", "", Long.toString(m.requestSuccess));
      out.append('\n');
    }
    if (m.concatChunking > 0) {
      family(out, "tgi_batch_concat", null, "counter");
      line(out, "tgi_batch_concat", "{reason=\"chunking\"}", Long.toString(m.concatChunking));
      out.append('\n');
    }
    if (m.requestCount > 0) {
      family(out, "tgi_request_count", "Total number of requests", "counter");
      line(out, "tgi_request_count", "", Long.toString(m.requestCount));
      out.append('\n');
    }
    if (!m.failures.isEmpty()) {
      family(out, "tgi_request_failure", null, "counter");
      m.failures.forEach(
          (err, n) -> line(out, "tgi_request_failure", "{err=\"" + err + "\"}", Long.toString(n)));
      out.append('\n');
    }
    List<String> pd = List.of("prefill", "decode");
    perMethod(
        out,
        m,
        "tgi_batch_inference_success",
        "Number of successful inference calls " + BY_METHOD,
        pd);
    perMethod(
        out,
        m,
        "tgi_batch_inference_count",
        "Inference calls " + BY_METHOD,
        List.of("decode", "prefill"));
  }

  private static void perMethod(
      StringBuilder out, TgiMetrics m, String name, String help, List<String> order) {
    if (m.prefill.calls == 0 && m.decode.calls == 0) {
      return;
    }
    family(out, name, help, "counter");
    for (String method : order) {
      TgiMetrics.Batch b = batch(m, method);
      if (b.calls > 0) {
        line(out, name, "{method=\"" + method + "\"}", Long.toString(b.calls));
      }
    }
    out.append('\n');
  }

  private static TgiMetrics.Batch batch(TgiMetrics m, String method) {
    return method.equals("prefill") ? m.prefill : m.decode;
  }

  private static void gauges(StringBuilder out, TgiMetrics m) {
    EngineState s = m.state();
    if (s == null) {
      return;
    }
    if (m.anyRequest()) {
      gauge(out, "tgi_queue_size", "Current queue size", s.waiting());
    }
    if (m.anyBatch()) {
      // the simulator's stand-in for the batch's token budget: the tokens its requests hold
      gauge(
          out,
          "tgi_batch_current_max_tokens",
          "Maximum tokens for the current batch",
          s.usedTokens());
      gauge(out, "tgi_batch_current_size", "Current batch size", s.running());
    }
  }

  private static void gauge(StringBuilder out, String name, String help, double value) {
    family(out, name, help, "gauge");
    line(out, name, "", RustFloat.format(value));
    out.append('\n');
  }

  private static void distributions(StringBuilder out, TgiMetrics m) {
    histogram(out, "tgi_request_input_length", "Input token length per request", m.inputLength);
    histogram(out, "tgi_request_max_new_tokens", "Maximum new tokens per request", m.maxNewTokens);
    histogram(out, "tgi_request_inference_duration", "Request inference duration", m.inference);
    if (m.skippedCount > 0) {
      family(out, "tgi_request_skipped_tokens", "Speculated tokens per request", "summary");
      for (String q : QUANTILES) {
        line(out, "tgi_request_skipped_tokens", "{quantile=\"" + q + "\"}", "0");
      }
      line(out, "tgi_request_skipped_tokens_sum", "", "0");
      line(out, "tgi_request_skipped_tokens_count", "", Long.toString(m.skippedCount));
      out.append('\n');
    }
    byMethod(
        out,
        m,
        "tgi_batch_forward_duration",
        "Batch forward duration " + BY_METHOD,
        "forward",
        true);
    histogram(out, "tgi_request_duration", "Request duration", m.duration);
    histogram(out, "tgi_request_validation_duration", "Request validation duration", m.validation);
    histogram(out, "tgi_request_queue_duration", "Request queue duration", m.queue);
    byMethod(
        out,
        m,
        "tgi_batch_filter_duration",
        "Time spent filtering batches and sending generated tokens " + BY_METHOD,
        "filter",
        false);
    byMethod(out, m, "tgi_batch_inference_duration", "Batch inference duration", "inference", true);
    histogram(
        out,
        "tgi_request_mean_time_per_token_duration",
        "Mean time per token per request",
        m.timePerToken);
    if (m.concatDuration.count() > 0) {
      family(out, "tgi_batch_concat_duration", null, "histogram");
      buckets(out, "tgi_batch_concat_duration", "method=\"decode\"", m.concatDuration);
      out.append('\n');
    }
    histogram(
        out, "tgi_request_generated_tokens", "Generated tokens per request", m.generatedTokens);
    byMethod(
        out,
        m,
        "tgi_batch_decode_duration",
        "Time spent decoding a batch " + BY_METHOD,
        "decode",
        true);
    histogram(out, "tgi_batch_next_size", "Batch size of the next batch", m.nextSize);
  }

  private static void histogram(StringBuilder out, String name, String help, Histogram h) {
    if (h.count() == 0) {
      return;
    }
    family(out, name, help, "histogram");
    buckets(out, name, "", h);
    out.append('\n');
  }

  /** A per-method histogram; {@code prefillFirst} is the capture's order of the two. */
  private static void byMethod(
      StringBuilder out,
      TgiMetrics m,
      String name,
      String help,
      String which,
      boolean prefillFirst) {
    List<String> order = prefillFirst ? List.of("prefill", "decode") : List.of("decode", "prefill");
    boolean any = false;
    for (String method : order) {
      any |= part(batch(m, method), which).count() > 0;
    }
    if (!any) {
      return;
    }
    family(out, name, help, "histogram");
    for (String method : order) {
      Histogram h = part(batch(m, method), which);
      if (h.count() > 0) {
        buckets(out, name, "method=\"" + method + "\"", h);
      }
    }
    out.append('\n');
  }

  private static Histogram part(TgiMetrics.Batch b, String which) {
    switch (which) {
      case "forward":
        return b.forward;
      case "filter":
        return b.filter;
      case "decode":
        return b.decode;
      default:
        return b.inference;
    }
  }

  private static void buckets(StringBuilder out, String name, String labels, Histogram h) {
    String pre = labels.isEmpty() ? "{le=\"" : "{" + labels + ",le=\"";
    String own = labels.isEmpty() ? "" : "{" + labels + "}";
    long[] cumulative = new long[h.size() + 1];
    h.cumulativeInto(cumulative);
    for (int i = 0; i <= h.size(); i++) {
      String le = i == h.size() ? "+Inf" : RustFloat.format(h.bound(i));
      line(out, name + "_bucket", pre + le + "\"}", Long.toString(cumulative[i]));
    }
    line(out, name + "_sum", own, RustFloat.format(h.sum()));
    line(out, name + "_count", own, Long.toString(h.count()));
  }

  private static void family(StringBuilder out, String name, String help, String type) {
    if (help != null) {
      out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    }
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void line(StringBuilder out, String name, String labels, String value) {
    out.append(name).append(labels).append(' ').append(value).append('\n');
  }
}
