package dev.infermon.llm.dashboard;

import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.List;

/**
 * What one panel query computes from canonical signals, before any engine name is known. The {@link
 * PromqlCompiler} turns a measure into PromQL for the engines and releases present.
 */
public sealed interface Measure {
  /** The signals the measure reads (for explaining an empty panel). */
  List<Signal> signals();

  /** A gauge signal's level. */
  record Level(Signal signal) implements Measure {
    public List<Signal> signals() {
      return List.of(signal);
    }
  }

  /** A counter signal's per-second rate. */
  record Rate(Signal signal) implements Measure {
    public List<Signal> signals() {
      return List.of(signal);
    }
  }

  /** A histogram signal's quantile: {@code fixed} when set, else the one the user selected. */
  record Quantile(Signal signal, Double fixed) implements Measure {
    public List<Signal> signals() {
      return List.of(signal);
    }
  }

  /** A histogram signal's mean ({@code rate(_sum) / rate(_count)}). */
  record Mean(Signal signal) implements Measure {
    public List<Signal> signals() {
      return List.of(signal);
    }
  }

  /**
   * A histogram signal's bucket counts per step by {@code le}, for a heatmap: each point is what
   * the cumulative buckets gained since the previous step, so a column is the step's observations.
   */
  record Heatmap(Signal signal) implements Measure {
    public List<Signal> signals() {
      return List.of(signal);
    }
  }

  /**
   * One measure divided by another (0/0 gives no point, not NaN), plus a constant: vLLM's mean
   * acceptance length is {@code 1 + accepted / drafts}, the 1 being the bonus token every verify
   * step emits.
   */
  record Ratio(Measure numerator, Measure denominator, double plus) implements Measure {
    /** A plain ratio. */
    public Ratio(Measure numerator, Measure denominator) {
      this(numerator, denominator, 0);
    }

    /** Validates. */
    public Ratio {
      if (!Double.isFinite(plus)) {
        throw new IllegalArgumentException("plus must be finite, got " + plus);
      }
    }

    /** A plain ratio prints as it did before {@code plus} existed (the layout golden). */
    @Override
    public String toString() {
      String parts = "numerator=" + numerator + ", denominator=" + denominator;
      return "Ratio[" + parts + (plus == 0 ? "" : ", plus=" + plus) + "]";
    }

    public List<Signal> signals() {
      List<Signal> out = new ArrayList<>(numerator.signals());
      out.addAll(denominator.signals());
      return out;
    }
  }

  /**
   * The share of finished requests that succeeded: {@code 1 - failed / finished}, where a finish
   * reason of stop, length or repetition succeeds and abort or error fails (docs/dashboard.md).
   */
  record SuccessRate() implements Measure {
    public List<Signal> signals() {
      return List.of(Signal.REQUESTS_FINISHED, Signal.REQUESTS_FAILED);
    }
  }

  /**
   * Decode time per token generated in decode: {@code rate(decode_time_sum) /
   * (rate(generation_length_sum) - rate(generation_length_count))}, over the requests that
   * finished. vLLM observes both histograms for every finished request; its decode phase runs from
   * the first token to the last, so the tokens it produced are the generation length less the first
   * (the prefill's), as {@code mean_time_per_output_token} counts them. Unlike inter-token latency,
   * which vLLM observes once per engine step, this stays per token when a step emits several
   * (speculative decoding).
   */
  record DecodePerToken() implements Measure {
    public List<Signal> signals() {
      return List.of(Signal.DECODE_TIME, Signal.GENERATION_LENGTH);
    }
  }

  /**
   * vLLM's LoRA adapters from {@code lora_requests_info} ({@code --enable-lora}): the adapter lists
   * of each pod's newest series split into one series per adapter ({@code lora_adapter}), or the
   * slots they take against {@code max_lora} (docs/dashboard.md, "LoRA adapters").
   */
  record Lora(View view) implements Measure {
    /** What the measure reads from the lists. */
    public enum View {
      /** Per adapter: the pods whose running list names it. */
      RUNNING,
      /** Per adapter: the pods whose waiting list names it. */
      WAITING,
      /**
       * Per adapter: the pods whose running or waiting list named it at any moment of the step, not
       * only at its end: the model filter's choices, so that an adapter that ran only between two
       * steps is offered too.
       */
      LISTED,
      /** The adapters the running lists name (slots in use), summed over the group's pods. */
      SLOTS_USED,
      /** {@code max_lora} (the slots), summed over the group's pods. */
      SLOTS_MAX;

      /** The key in panels.yaml ({@code slots_used}). */
      public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
      }
    }

    /** Validates. */
    public Lora {
      if (view == null) {
        throw new IllegalArgumentException("view must not be null");
      }
    }

    public List<Signal> signals() {
      switch (view) {
        case SLOTS_USED:
          return List.of(Signal.LORA_SLOTS_USED);
        case SLOTS_MAX:
          return List.of(Signal.LORA_SLOTS_TOTAL);
        default:
          return List.of(Signal.LORA_ADAPTERS);
      }
    }
  }

  /**
   * A GPU exporter's signal (dcgm-exporter, AMD device-metrics-exporter) on the GPUs attributed to
   * the inference pods in scope.
   */
  record Gpu(Signal signal) implements Measure {
    public List<Signal> signals() {
      return List.of(signal);
    }
  }

  /**
   * The GPUs attributed to the group's pods while those pods run no request (running-requests gauge
   * at 0): GPU time paid for and unused. 0 when every pod is busy, so the line is there.
   */
  record IdleGpus() implements Measure {
    public List<Signal> signals() {
      return List.of(Signal.GPU_COUNT, Signal.REQUESTS_RUNNING);
    }
  }

  /**
   * What a million generated tokens cost at the configured GPU-hour prices ({@code llm.cost}): the
   * group's GPUs priced per dcgm-exporter {@code modelName}, per second, over its generated tokens
   * per second. Compiled only with the prices ({@link PromqlCompiler#compileCostPerMillionTokens}).
   */
  record CostPerMillionTokens() implements Measure {
    public List<Signal> signals() {
      return List.of(Signal.GENERATION_TOKENS, Signal.GPU_COUNT);
    }
  }

  /** A measure divided by the number of GPUs attributed to the group's pods. */
  record PerGpu(Measure measure) implements Measure {
    public List<Signal> signals() {
      List<Signal> out = new ArrayList<>(measure.signals());
      out.add(Signal.GPU_COUNT);
      return out;
    }
  }

  /**
   * A per-GPU rate (or the sum of several) as a share of the peak of the GPUs attributed to the
   * group's pods: model FLOPs utilisation ({@link Peak#FLOPS}) or memory-bandwidth utilisation
   * ({@link Peak#BANDWIDTH}). The peak is the mean, over those GPUs, of the figure the GPU peak
   * table (gpu-peaks.yaml) gives their dcgm-exporter {@code modelName}; GPUs the table lacks drop
   * out, so a group whose GPUs all lack one has no point.
   */
  record OfPeak(List<Signal> rates, Peak peak) implements Measure {
    /** Which peak figure divides. */
    public enum Peak {
      /** Dense BF16 Tensor Core FLOP/s. */
      FLOPS,
      /** Memory bytes per second. */
      BANDWIDTH;

      /** The key in panels.yaml ({@code flops}). */
      public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
      }
    }

    /** Validates. */
    public OfPeak {
      if (rates == null || rates.isEmpty() || peak == null) {
        throw new IllegalArgumentException("an of_peak measure needs rates and a peak");
      }
      rates = List.copyOf(rates);
    }

    public List<Signal> signals() {
      List<Signal> out = new ArrayList<>(rates);
      out.add(Signal.GPU_COUNT);
      return out;
    }
  }

  /**
   * A router's view of the engines behind it ({@code routers.yaml}, docs/dashboard.md "Router
   * level"): per engine pod where the router names one, else per router or model; a histogram
   * signal's quantile ({@code fixed} when set, else the selected one). No engine signal: an engine
   * panel never reads a router's series, nor a router panel an engine's (but its pods' labels).
   */
  record Router(dev.infermon.llm.signals.RouterSignal signal, Double fixed) implements Measure {
    /** Validates. */
    public Router {
      if (signal == null) {
        throw new IllegalArgumentException("router signal must not be null");
      }
      if (fixed != null && !(fixed > 0 && fixed < 1)) {
        throw new IllegalArgumentException("quantile must be in (0, 1), got " + fixed);
      }
    }

    public List<Signal> signals() {
      return List.of();
    }
  }
}
