package dev.infermon.web;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.lint.LintService;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.report.ReportService;
import dev.infermon.llm.slo.SloService;
import dev.infermon.promql.QueryBackend;
import dev.infermon.storage.Appendable;
import dev.infermon.web.retrieval.RulesRetriever;
import dev.infermon.web.retrieval.TargetRetriever;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Everything the HTTP server serves, late-bound: the server starts listening before the storage has
 * replayed its write-ahead log, so the query backend and the appendable are suppliers that return
 * null until then (the API answers 503 meanwhile). The LLM layer's services are built by the server
 * (its {@code LlmLayer}); the web module only adapts them to HTTP. Build with {@link #builder()};
 * immutable.
 *
 * <p>Threading: the suppliers and retrievers are called from many request threads at once and must
 * be thread-safe.
 */
public final class WebServices {
  /** Reloads the configuration; throws with the reason when the new one is refused. */
  @FunctionalInterface
  public interface Reloader {
    void reload() throws Exception;
  }

  final Supplier<QueryBackend> queries;
  final Supplier<Appendable> appendable;
  final TargetRetriever targets;
  final RulesRetriever rules;
  final Supplier<String> configYaml;
  final Map<String, String> flags;
  final BuildInfo buildInfo;
  final Reloader reloader;
  final PrometheusRegistry registry;
  final Supplier<DashboardService> dashboard;
  final Supplier<DiagnosisService> diagnosis;
  final Supplier<SloService> slo;
  final Supplier<EfficiencyService> efficiency;
  final Supplier<CapacityService> capacity;
  final Supplier<ReportService> report;
  final Supplier<LintService> lint;
  final ExportService exports;
  final Supplier<LlmConfig> llm;
  final Supplier<List<String>> startupProblems;

  private WebServices(Builder b) {
    this.queries = b.queries;
    this.appendable = b.appendable;
    this.targets = b.targets;
    this.rules = b.rules;
    this.configYaml = b.configYaml;
    this.flags = Map.copyOf(new TreeMap<>(b.flags));
    this.buildInfo = b.buildInfo;
    this.reloader = b.reloader;
    this.registry = b.registry;
    this.dashboard = b.dashboard;
    this.diagnosis = b.diagnosis;
    this.slo = b.slo;
    this.efficiency = b.efficiency;
    this.capacity = b.capacity;
    this.report = b.report;
    this.lint = b.lint;
    this.exports = b.exports;
    this.llm = b.llm;
    this.startupProblems = b.startupProblems;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Collects the services; every one has a harmless default. Not thread-safe. */
  public static final class Builder {
    private Supplier<QueryBackend> queries = () -> null;
    private Supplier<Appendable> appendable = () -> null;
    private TargetRetriever targets = TargetRetriever.NONE;
    private RulesRetriever rules = RulesRetriever.NONE;
    private Supplier<String> configYaml = () -> "";
    private Map<String, String> flags = Map.of();
    private BuildInfo buildInfo = BuildInfo.UNKNOWN;
    private Reloader reloader =
        () -> {
          throw new UnsupportedOperationException("reloading is not available");
        };
    private PrometheusRegistry registry = new PrometheusRegistry();
    private Supplier<DashboardService> dashboard = () -> null;
    private Supplier<DiagnosisService> diagnosis = () -> null;
    private Supplier<SloService> slo = () -> null;
    private Supplier<EfficiencyService> efficiency = () -> null;
    private Supplier<CapacityService> capacity = () -> null;
    private Supplier<ReportService> report = () -> null;
    private Supplier<LintService> lint = () -> null;
    private ExportService exports;
    private Supplier<LlmConfig> llm = () -> LlmConfig.DEFAULT;
    private Supplier<List<String>> startupProblems = List::of;

    private Builder() {}

    /** The query backend, or null while the storage is not ready. */
    public Builder queries(Supplier<QueryBackend> queries) {
      this.queries = Objects.requireNonNull(queries, "queries");
      return this;
    }

    /** Where remote-written samples go, or null while the storage is not ready. */
    public Builder appendable(Supplier<Appendable> appendable) {
      this.appendable = Objects.requireNonNull(appendable, "appendable");
      return this;
    }

    public Builder targets(TargetRetriever targets) {
      this.targets = Objects.requireNonNull(targets, "targets");
      return this;
    }

    public Builder rules(RulesRetriever rules) {
      this.rules = Objects.requireNonNull(rules, "rules");
      return this;
    }

    /** The running configuration as YAML with every secret redacted. */
    public Builder configYaml(Supplier<String> configYaml) {
      this.configYaml = Objects.requireNonNull(configYaml, "configYaml");
      return this;
    }

    /** Command-line flags and their values, secrets already hidden. */
    public Builder flags(Map<String, String> flags) {
      this.flags = Objects.requireNonNull(flags, "flags");
      return this;
    }

    public Builder buildInfo(BuildInfo buildInfo) {
      this.buildInfo = Objects.requireNonNull(buildInfo, "buildInfo");
      return this;
    }

    public Builder reloader(Reloader reloader) {
      this.reloader = Objects.requireNonNull(reloader, "reloader");
      return this;
    }

    /** The registry served on {@code /metrics}; the server adds its HTTP metrics to it. */
    public Builder registry(PrometheusRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * The LLM dashboard ({@code /api/v1/llm/*}), or null while the storage is not ready; without
     * one those endpoints answer 503.
     */
    public Builder dashboard(Supplier<DashboardService> dashboard) {
      this.dashboard = Objects.requireNonNull(dashboard, "dashboard");
      return this;
    }

    /** Diagnosis ({@code /api/v1/llm/diagnosis}), or null while the storage is not ready. */
    public Builder diagnosis(Supplier<DiagnosisService> diagnosis) {
      this.diagnosis = Objects.requireNonNull(diagnosis, "diagnosis");
      return this;
    }

    /** The SLO panel ({@code /api/v1/llm/slo}), or null while the storage is not ready. */
    public Builder slo(Supplier<SloService> slo) {
      this.slo = Objects.requireNonNull(slo, "slo");
      return this;
    }

    /** Efficiency and cost ({@code /api/v1/llm/efficiency}), or null while not ready. */
    public Builder efficiency(Supplier<EfficiencyService> efficiency) {
      this.efficiency = Objects.requireNonNull(efficiency, "efficiency");
      return this;
    }

    /** Capacity headroom ({@code /api/v1/llm/capacity}), or null while the storage is not ready. */
    public Builder capacity(Supplier<CapacityService> capacity) {
      this.capacity = Objects.requireNonNull(capacity, "capacity");
      return this;
    }

    /** The report ({@code /api/v1/llm/report}), or null while the storage is not ready. */
    public Builder report(Supplier<ReportService> report) {
      this.report = Objects.requireNonNull(report, "report");
      return this;
    }

    /**
     * Lint ({@code /api/v1/llm/lint}): a service without a store until the storage is ready (the
     * catalog reference still answers), one over the shared inventory after.
     */
    public Builder lint(Supplier<LintService> lint) {
      this.lint = Objects.requireNonNull(lint, "lint");
      return this;
    }

    /**
     * The exports and the catalog ({@code /api/v1/llm/export/*}, {@code /catalog/names}), which
     * need no storage; without them those endpoints answer 503 (the catalog names fall back to the
     * dashboard's catalog).
     */
    public Builder exports(ExportService exports) {
      this.exports = Objects.requireNonNull(exports, "exports");
      return this;
    }

    /** The {@code llm} config section: quantiles offered, alert thresholds of the export. */
    public Builder llm(Supplier<LlmConfig> llm) {
      this.llm = Objects.requireNonNull(llm, "llm");
      return this;
    }

    /**
     * What start-up skipped of the stored data, one line each (blocks, write-ahead log damage);
     * {@code /-/ready} lists them under its ready line.
     */
    public Builder startupProblems(Supplier<List<String>> startupProblems) {
      this.startupProblems = Objects.requireNonNull(startupProblems, "startupProblems");
      return this;
    }

    public WebServices build() {
      return new WebServices(this);
    }
  }
}
