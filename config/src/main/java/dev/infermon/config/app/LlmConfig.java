package dev.infermon.config.app;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code llm} section: the built-in alert pack, the latency quantiles that dashboards show and
 * the service-level objectives. Alerts are few and user-facing: time to first token over target,
 * requests piling up while the engine preempts, and failures rising. {@code cost} prices GPU time
 * for the efficiency figures. {@code dashboard.rollups} keeps the stored answers of the default
 * dashboard's queries (embedded engine only; docs/configuration.md#llmdashboard).
 */
public record LlmConfig(
    Alerts alerts, List<Double> quantiles, List<Slo> slos, Cost cost, Dashboard dashboard) {
  /**
   * The {@code llm.dashboard} section.
   *
   * @param rollups whether the answers of the default dashboard's queries are evaluated as the data
   *     arrives and stored, so that a load reads them (the embedded engine only)
   */
  public record Dashboard(boolean rollups) {
    public static final Dashboard DEFAULT = new Dashboard(true);
  }

  public LlmConfig {
    if (dashboard == null) {
      throw new IllegalArgumentException("dashboard must be set (Dashboard.DEFAULT)");
    }
    quantiles = List.copyOf(quantiles);
    slos = List.copyOf(slos);
    if (cost == null) {
      throw new IllegalArgumentException("cost must be set (Cost.NONE for no prices)");
    }
  }

  /** The section with the default of {@code dashboard.rollups}. */
  public LlmConfig(Alerts alerts, List<Double> quantiles, List<Slo> slos, Cost cost) {
    this(alerts, quantiles, slos, cost, Dashboard.DEFAULT);
  }

  /** The section without prices. */
  public LlmConfig(Alerts alerts, List<Double> quantiles, List<Slo> slos) {
    this(alerts, quantiles, slos, Cost.NONE);
  }

  /** The section without SLOs and prices. */
  public LlmConfig(Alerts alerts, List<Double> quantiles) {
    this(alerts, quantiles, List.of());
  }

  /**
   * The price of GPU time, for cost per million generated tokens (docs/configuration.md).
   *
   * @param currency what the prices are in ({@code USD}); only printed beside the figures
   * @param defaultGpuHourPrice the price of a GPU-hour of a GPU model not in {@code gpuHourPrices};
   *     absent: such GPUs have no price and the cost of their pods is not computed
   * @param gpuHourPrices price of one GPU-hour keyed by dcgm-exporter's {@code modelName} label
   *     value ({@code NVIDIA H100 80GB HBM3}), in file order
   */
  public record Cost(
      String currency, Optional<Double> defaultGpuHourPrice, Map<String, Double> gpuHourPrices) {
    public static final String DEFAULT_CURRENCY = "USD";

    /** No prices: cost figures are absent, with that reason. */
    public static final Cost NONE = new Cost(DEFAULT_CURRENCY, Optional.empty(), Map.of());

    /** Validates: a price is a finite number of at least 0. */
    public Cost {
      if (currency == null || currency.isBlank()) {
        throw new IllegalArgumentException("currency must not be empty");
      }
      defaultGpuHourPrice.ifPresent(p -> checkPrice("default_gpu_hour_price", p));
      gpuHourPrices.forEach((k, v) -> checkPrice("gpu_hour_prices." + k, v));
      gpuHourPrices = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(gpuHourPrices));
    }

    /** The price of one GPU-hour of {@code gpuModel}, or empty when none is configured. */
    public Optional<Double> price(String gpuModel) {
      Double p = gpuHourPrices.get(gpuModel);
      return p != null ? Optional.of(p) : defaultGpuHourPrice;
    }

    /** Whether any price is configured. */
    public boolean priced() {
      return defaultGpuHourPrice.isPresent() || !gpuHourPrices.isEmpty();
    }

    private static void checkPrice(String what, double p) {
      if (!(p >= 0 && Double.isFinite(p))) {
        throw new IllegalArgumentException(what + " must be a number of at least 0, got " + p);
      }
    }
  }

  /**
   * One service-level objective of a model, turned into recording rules and burn-rate alerts by the
   * lint module's SLO generator (docs/slo.md).
   *
   * @param name a unique name (labels {@code slo} on the generated series); defaults to {@code
   *     <model>-<sli>}
   * @param model the served model ({@code model_name})
   * @param sli {@code ttft}, {@code tpot}, {@code itl}, {@code e2e} or {@code success}
   * @param engine {@code vllm} or {@code sglang}; empty for every engine that has the SLI
   * @param threshold the latency a good request stays within (latency SLIs; zero for success)
   * @param objective the share of good requests, in (0, 1)
   * @param window the period the error budget is counted over
   */
  public record Slo(
      String name,
      String model,
      String sli,
      String engine,
      Duration threshold,
      double objective,
      Duration window) {
    /** The SLIs an SLO can be about. */
    public static final List<String> SLIS = List.of("ttft", "tpot", "itl", "e2e", "success");

    /** The default error-budget period: 30 days, as in the SRE workbook. */
    public static final Duration DEFAULT_WINDOW = Duration.ofDays(30);
  }

  /**
   * Thresholds of the default alert pack.
   *
   * @param failureRatio share of finished requests that end in abort or error above which {@code
   *     LLMRequestFailuresHigh} fires, in (0, 1)
   * @param failureFor how long that share must stay above it
   * @param failureMinCount the fewest failed requests over the pack's 5-minute rate window (the
   *     failed rate times 300 s) for the failing share to count, in the alert and in diagnosis
   *     alike: one failure in a handful of requests is a large share of nothing; 0 counts every
   *     share
   */
  public record Alerts(
      boolean enabled,
      double ttftQuantile,
      Duration ttftThreshold,
      Duration ttftFor,
      long waitingThreshold,
      Duration waitingFor,
      double failureRatio,
      Duration failureFor,
      long failureMinCount) {
    /** The pack's rate window, in seconds: what {@code failureMinCount} counts failures over. */
    public static final long RATE_WINDOW_SECONDS = 300;

    /**
     * TTFT p95 above 1 s for 10 minutes (1 s is a bucket bound of vLLM's and SGLang's TTFT
     * histograms, so the quantile is measured there, not interpolated; the usual 2 s is not a bound
     * of vLLM's); more than 50 waiting with preemptions for 15 minutes; more than 5 % of requests
     * failing for 15 minutes, counted once at least 10 requests failed in 5 minutes (the
     * simulator's error-spike scenario fails over 100 per pod in 5 minutes; the real captures
     * replayed live fail at most 3, most of them none).
     */
    public static final Alerts DEFAULT =
        new Alerts(
            true,
            0.95,
            Duration.ofSeconds(1),
            Duration.ofMinutes(10),
            50,
            Duration.ofMinutes(15),
            0.05,
            Duration.ofMinutes(15),
            10);

    /**
     * @throws IllegalArgumentException for a negative {@code failureMinCount}
     */
    public Alerts {
      if (failureMinCount < 0) {
        throw new IllegalArgumentException(
            "failureMinCount must be 0 or more, got " + failureMinCount);
      }
    }

    /** Whether {@code failedPerSecond} failures add up to the minimum over the rate window. */
    public boolean enoughFailures(double failedPerSecond) {
      return failureMinCount == 0
          || (!Double.isNaN(failedPerSecond)
              && failedPerSecond * RATE_WINDOW_SECONDS >= failureMinCount);
    }
  }

  public static final List<Double> DEFAULT_QUANTILES = List.of(0.5, 0.9, 0.95, 0.99);
  public static final LlmConfig DEFAULT = new LlmConfig(Alerts.DEFAULT, DEFAULT_QUANTILES);
}
