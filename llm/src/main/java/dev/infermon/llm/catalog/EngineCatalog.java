package dev.infermon.llm.catalog;

import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything the catalog knows about one engine: its release lines, name variants, metric families
 * and where it finds each canonical signal. Immutable; thread-safe.
 */
public final class EngineCatalog {
  private final String engine;
  private final Placement placement;
  private final String title;
  private final List<ReleaseLine> versions;
  private final List<NameVariant> variants;
  private final List<MetricEntry> metrics;
  private final Map<Signal, List<SignalSource>> signals;
  private final List<String> ignorePrefixes;
  private final List<String> dedupeLabels;
  private final ReleaseLine createdSince;
  private final List<WriterGroup> writers;
  private final String metricsOn;
  private final String metricsOff;
  private final String modelFromLabel;
  private final Optional<String> modelPlaceholder;
  private final String gpuModelLabel;
  private final String gpuIndexLabel;
  private final boolean disaggregated;
  private final List<String> concurrencyFlags;
  private final Map<Signal, String> notExposed;
  private final Map<String, List<MetricEntry>> byName = new LinkedHashMap<>();

  EngineCatalog(
      String engine,
      String title,
      List<ReleaseLine> versions,
      List<NameVariant> variants,
      List<MetricEntry> metrics,
      Map<Signal, List<SignalSource>> signals,
      List<String> ignorePrefixes,
      List<String> dedupeLabels,
      ReleaseLine createdSince,
      List<WriterGroup> writers,
      String metricsOn,
      String metricsOff,
      String modelFromLabel,
      Optional<String> modelPlaceholder,
      String gpuModelLabel,
      String gpuIndexLabel,
      boolean disaggregated,
      List<String> concurrencyFlags,
      Map<Signal, String> notExposed,
      Placement placement) {
    this.engine = engine;
    this.placement = placement;
    this.title = title;
    this.versions = List.copyOf(versions);
    this.variants = List.copyOf(variants);
    this.metrics = List.copyOf(metrics);
    Map<Signal, List<SignalSource>> s = new LinkedHashMap<>();
    signals.forEach((k, v) -> s.put(k, List.copyOf(v)));
    this.signals = Collections.unmodifiableMap(s);
    this.ignorePrefixes = List.copyOf(ignorePrefixes);
    this.dedupeLabels = List.copyOf(dedupeLabels);
    this.createdSince = createdSince;
    this.writers = List.copyOf(writers);
    this.metricsOn = metricsOn;
    this.metricsOff = metricsOff;
    this.modelFromLabel = modelFromLabel;
    this.modelPlaceholder = Objects.requireNonNull(modelPlaceholder, "modelPlaceholder");
    if (modelPlaceholder.isPresent() && modelFromLabel.isEmpty()) {
      throw new IllegalArgumentException(
          engine + ": model_placeholder needs model_from_label (where the model is read instead)");
    }
    this.gpuModelLabel = gpuModelLabel;
    this.gpuIndexLabel = gpuIndexLabel;
    this.disaggregated = disaggregated;
    this.concurrencyFlags = List.copyOf(concurrencyFlags);
    this.notExposed = Collections.unmodifiableMap(new LinkedHashMap<>(notExposed));
    for (MetricEntry m : metrics) {
      byName.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(m);
    }
  }

  /**
   * The engine whose process this one runs inside and whose page carries its families (LMCache in
   * vLLM: {@code vllm}); empty for an engine with targets of its own. Such a component never names
   * a target's engine: its signals are read on the host's pods, and a host pod without them is told
   * so in the component's words (ReasonFinder).
   */
  public String runsIn() {
    return placement.host();
  }

  /**
   * What is true of a pod of engine or product {@code engineOrProduct} for this component's
   * signals, where it is not read there (LMCache on an SGLang pod, on NVIDIA NIM): the clause an
   * empty panel says; empty for an engine, or where the catalog does not say.
   */
  public Optional<String> absentOn(String engineOrProduct) {
    return placement.absentOn(engineOrProduct);
  }

  /**
   * The clauses for a pod of host engine {@code host} of releases {@code range} (null when not
   * dated) served through the engines {@code servedThrough} (a Dynamo worker): {@link
   * Placement#absences}.
   */
  public List<Absence> absences(
      EngineCatalog host, ReleaseRange range, java.util.Set<String> servedThrough) {
    return placement.absences(host.engine(), host, range, servedThrough);
  }

  /** Every {@code absent_on} clause, in catalog order. */
  public List<Absence> absences() {
    return placement.absences();
  }

  /**
   * What the engine exposes in place of {@code s}, a signal it has no source for, as a clause ("the
   * size in blocks ..."); empty when the catalog does not say.
   */
  public Optional<String> exposesInstead(Signal s) {
    return Optional.ofNullable(notExposed.get(s));
  }

  /**
   * What turns the engine's metrics on, as a clause ("stat logging is on (no
   * --disable-log-stats)"); empty when the catalog does not say.
   */
  public String metricsOn() {
    return metricsOn;
  }

  /**
   * What the endpoint does while the engine's metrics are off, when that fails the scrape, as a
   * clause ("llama-server answers /metrics with HTTP 501 unless it runs with --metrics"); empty
   * when the page is served either way.
   */
  public String metricsOff() {
    return metricsOff;
  }

  /**
   * The target label that names the model when the engine's series carry no {@code model_name}
   * ({@code workload_name} for llama.cpp, whose page has no labels); empty when they carry it.
   */
  public String modelFromLabel() {
    return modelFromLabel;
  }

  /**
   * The {@code model_name} value that names no model, when the engine has one: TensorRT-LLM's
   * hard-coded {@code "undefined"} before #12545, or {@code ""} for an engine whose page names no
   * model but whose targets may carry a relabeled {@code model_name} (TGI). Only series carrying it
   * take their model from {@link #modelFromLabel()}; the others keep their own. Empty for an engine
   * where every series takes it from the label (llama.cpp).
   */
  public Optional<String> modelPlaceholder() {
    return modelPlaceholder;
  }

  /**
   * Whether the engine can serve prefill and decode on separate pods, so that its targets may have
   * a {@code role}; an engine that cannot has no branch in the role panels.
   */
  public boolean disaggregated() {
    return disaggregated;
  }

  /**
   * The flags that set how many requests one replica runs at once ({@code llama-server
   * --parallel}): what a request waiting for a free slot waits on; empty when the catalog does not
   * say.
   */
  public List<String> concurrencyFlags() {
    return concurrencyFlags;
  }

  /**
   * Whether this is a GPU exporter (dcgm-exporter, AMD's device-metrics-exporter) rather than an
   * inference engine: its targets are per node, its GPU signals are joined to the inference pods
   * they are attributed to, and no engine panel, SLO or diagnosis reads it.
   */
  public boolean gpuExporter() {
    return !gpuModelLabel.isEmpty();
  }

  /**
   * The label of a GPU exporter's series that names the card model ({@code modelName} for
   * dcgm-exporter, {@code card_model} for AMD's exporter), which the GPU peak and price tables are
   * keyed by; empty for an inference engine.
   */
  public String gpuModelLabel() {
    return gpuModelLabel;
  }

  /**
   * The label of a GPU exporter's series that holds the GPU's index on its node ({@code gpu} for
   * dcgm-exporter, {@code gpu_id} for AMD's exporter), which the per-GPU panels group by as {@code
   * gpu}; empty for an inference engine.
   */
  public String gpuIndexLabel() {
    return gpuIndexLabel;
  }

  /** The engine key ({@code vllm}, {@code sglang}, {@code dcgm}). */
  public String engine() {
    return engine;
  }

  /** The engine's display name. */
  public String title() {
    return title;
  }

  /** Release lines, oldest first. */
  public List<ReleaseLine> versions() {
    return versions;
  }

  /** The newest release line the catalog knows. */
  public ReleaseLine newest() {
    return versions.get(versions.size() - 1);
  }

  /** The release line named {@code name}, if the catalog knows it. */
  public Optional<ReleaseLine> version(String name) {
    for (ReleaseLine v : versions) {
      if (v.name().equals(name)) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether spelling {@code v} can carry catalog family {@code name}: within its product's subset,
   * not a family another product owns (NIM's own counters never appear as {@code vllm:}), and of a
   * release that writes the spelling (TensorRT-LLM's unprefixed names are 1.0's five families).
   */
  public boolean serves(NameVariant v, String name) {
    if (!v.serves(name) || ownedElsewhere(v, name)) {
      return false;
    }
    if (v.releases().isEmpty()) {
      return true;
    }
    for (MetricEntry m : entries(name)) {
      for (String r : v.releases()) {
        if (version(r).map(m::existsIn).orElse(false)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a spelling other than {@code v} owns {@code name}: then {@code v} never carries it. */
  public boolean ownedElsewhere(NameVariant v, String name) {
    return !v.own().contains(name) && variants.stream().anyMatch(o -> o.own().contains(name));
  }

  /** Name variants, the default ({@code vllm:}) first. */
  public List<NameVariant> variants() {
    return variants;
  }

  /** The engine's spellings, one per name variant, the default first. */
  public List<Spelling> spellings() {
    return Spelling.of(this);
  }

  /** The spelling whose prefix is {@code prefix}, if the engine has one. */
  public Optional<Spelling> spelling(String prefix) {
    for (NameVariant v : variants) {
      if (v.prefix().equals(prefix)) {
        return Optional.of(new Spelling(engine, v));
      }
    }
    return Optional.empty();
  }

  /** Every family, in catalog order. */
  public List<MetricEntry> metrics() {
    return metrics;
  }

  /** The entries named {@code name} (several when the type changed between releases). */
  public List<MetricEntry> entries(String name) {
    return byName.getOrDefault(name, List.of());
  }

  /** The entry named {@code name} that exists in {@code v}, if any. */
  public Optional<MetricEntry> entry(String name, ReleaseLine v) {
    for (MetricEntry m : entries(name)) {
      if (m.existsIn(v)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** Where the engine finds each signal, preferred source first; absent signals are not keys. */
  public Map<Signal, List<SignalSource>> signals() {
    return signals;
  }

  /** The sources of {@code s} (empty when the engine does not have it). */
  public List<SignalSource> sources(Signal s) {
    return signals.getOrDefault(s, List.of());
  }

  /** Family-name prefixes of generic collectors that are not engine metrics ({@code python_}). */
  public List<String> ignorePrefixes() {
    return ignorePrefixes;
  }

  /** Labels whose series repeat the same value and must be collapsed with max, never summed. */
  public List<String> dedupeLabels() {
    return dedupeLabels;
  }

  /**
   * The first release whose counters and histograms come with a {@code <name>_created} gauge (the
   * creation timestamp prometheus_client adds in single-process mode), or null when the engine has
   * none (Go exporters, multiprocess collectors).
   */
  public ReleaseLine createdSince() {
    return createdSince;
  }

  /** The groups of families written at the same moments (catalog {@code written_together}). */
  public List<WriterGroup> writers() {
    return writers;
  }

  /** The group that writes the family named {@code metric} (catalog name), if one is known. */
  public Optional<WriterGroup> writerOf(String metric) {
    for (WriterGroup g : writers) {
      if (g.metrics().contains(metric)) {
        return Optional.of(g);
      }
    }
    return Optional.empty();
  }

  /**
   * The catalog entry and variant behind an exposed family name (as a TYPE line or a parser reports
   * it: histograms without suffix), if the name belongs to this engine.
   */
  public Optional<Match> identifyFamily(String family) {
    return identifyFamily(family, null);
  }

  /**
   * The family's entries and spelling, among the spellings whose required labels {@code labelNames}
   * has ({@code null} when unknown: only the spellings that need none).
   */
  public Optional<Match> identifyFamily(String family, Set<String> labelNames) {
    for (NameVariant v : variants) {
      if (!v.carries(labelNames)) {
        continue;
      }
      for (MetricEntry m : metrics) {
        if (m.familyName(v).equals(family)) {
          return Optional.of(new Match(entries(m.name()), v));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The family behind a sample name ({@code vllm:ttft_seconds_bucket} is {@code
   * vllm:ttft_seconds}), if it belongs to this engine.
   */
  public Optional<String> familyOfSample(String sample) {
    for (NameVariant v : variants) {
      for (MetricEntry m : metrics) {
        if (m.sampleNames(v).contains(sample)) {
          return Optional.of(m.familyName(v));
        }
      }
    }
    return Optional.empty();
  }

  /** A family found in the catalog: its entries (by release) and the spelling it was found in. */
  public record Match(List<MetricEntry> entries, NameVariant variant) {}

  @Override
  public String toString() {
    return "EngineCatalog[" + engine + ", " + metrics.size() + " families]";
  }
}
