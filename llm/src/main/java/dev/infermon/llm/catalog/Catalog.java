package dev.infermon.llm.catalog;

import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The engine catalog: per engine (vLLM, SGLang, Hugging Face TGI, llama.cpp, dcgm-exporter, AMD's
 * device-metrics-exporter, TensorRT-LLM, Triton's TensorRT-LLM backend, NVIDIA Dynamo's frontend
 * and worker components, LMCache inside vLLM) each metric family's exposed name, type, unit,
 * labels, buckets, condition and history, with a citation, and where each canonical signal lives.
 * Loaded from the data files in {@code dev/infermon/llm/catalog/*.yaml} and validated at load
 * ({@link CatalogLoader}); beside the engines, the names of the routers and schedulers in front of
 * them ({@link #nonEngine()}). Immutable; thread-safe.
 */
public final class Catalog {
  /** The engines the built-in catalog covers, in display order. */
  public static final List<String> ENGINES =
      List.of(
          "vllm",
          "sglang",
          "tgi",
          "llamacpp",
          "dcgm",
          "amdgpu",
          "trtllm",
          "triton",
          "dynamo",
          "lmcache");

  private static volatile Catalog builtIn;

  private final Map<String, EngineCatalog> engines;
  private final NonEngineCatalog nonEngine;

  Catalog(List<EngineCatalog> engines, NonEngineCatalog nonEngine) {
    Map<String, EngineCatalog> m = new LinkedHashMap<>();
    for (EngineCatalog e : engines) {
      m.put(e.engine(), e);
    }
    this.engines = Collections.unmodifiableMap(m);
    this.nonEngine = nonEngine;
    for (EngineCatalog e : engines) {
      checkAbsences(e);
    }
  }

  /**
   * A component's absent_on bands name its host's release lines and its wrappers engines of this
   * catalog: the files are read one at a time, so only the whole catalog can tell.
   */
  private void checkAbsences(EngineCatalog e) {
    EngineCatalog host = engines.get(e.runsIn());
    for (Absence a : e.absences()) {
      for (String line : List.of(a.since(), a.until())) {
        if (!line.isEmpty() && (host == null || host.version(line).isEmpty())) {
          throw new CatalogException(
              e.engine()
                  + ".absent_on "
                  + a.on()
                  + ": \""
                  + line
                  + "\" is no release line of "
                  + e.runsIn());
        }
      }
      if (!a.workerOf().isEmpty() && !engines.containsKey(a.workerOf())) {
        throw new CatalogException(
            e.engine()
                + ".absent_on "
                + a.on()
                + ": worker_of names unknown engine "
                + a.workerOf());
      }
    }
  }

  /**
   * The engines a target of {@code engine} is served through, told by their gated families'
   * conditions among the target's {@code features} (an NVIDIA Dynamo worker's DYN_SYSTEM_PORT,
   * which the detector adds for the dynamo_component_* families on its page): never the engine
   * itself or a component running inside it.
   */
  public Set<String> servedThrough(Collection<String> features, String engine) {
    Set<String> out = new java.util.TreeSet<>();
    for (EngineCatalog w : engines.values()) {
      if (w.engine().equals(engine) || w.runsIn().equals(engine)) {
        continue;
      }
      for (MetricEntry m : w.metrics()) {
        if (m.condition().gated() && features.contains(m.condition().flag())) {
          out.add(w.engine());
          break;
        }
      }
    }
    return out;
  }

  /**
   * The built-in catalog (loaded once).
   *
   * @throws CatalogException if the shipped data is invalid (a build defect)
   */
  public static Catalog builtIn() {
    Catalog c = builtIn;
    if (c == null) {
      List<EngineCatalog> list = new ArrayList<>();
      for (String e : ENGINES) {
        list.add(CatalogLoader.loadResource(e));
      }
      c = new Catalog(list, NonEngineCatalog.loadResource());
      builtIn = c;
    }
    return c;
  }

  /**
   * The GPU exporters among the engines ({@link EngineCatalog#gpuExporter()}), in display order.
   */
  public List<EngineCatalog> gpuExporters() {
    return engines.values().stream().filter(EngineCatalog::gpuExporter).toList();
  }

  /** Whether {@code engine} names a GPU exporter of this catalog (false for an unknown name). */
  public boolean isGpuExporter(String engine) {
    EngineCatalog e = engines.get(engine);
    return e != null && e.gpuExporter();
  }

  /** A catalog of the given engines (tests, custom data), knowing no routers. */
  public static Catalog of(List<EngineCatalog> engines) {
    return new Catalog(engines, NonEngineCatalog.EMPTY);
  }

  /**
   * The names routers and schedulers expose ({@code routers.yaml}): known, never judged as engine
   * metrics.
   */
  public NonEngineCatalog nonEngine() {
    return nonEngine;
  }

  /** Every engine, in display order. */
  public List<EngineCatalog> engines() {
    return List.copyOf(engines.values());
  }

  /**
   * The components that run inside {@code host}'s process and put their families on its page
   * ({@link EngineCatalog#runsIn()}: LMCache in vLLM), in display order.
   */
  public List<EngineCatalog> runningIn(String host) {
    return engines.values().stream().filter(e -> e.runsIn().equals(host)).toList();
  }

  /**
   * The engine named {@code name}.
   *
   * @throws IllegalArgumentException naming the engine when the catalog has none by that name
   */
  public EngineCatalog engine(String name) {
    EngineCatalog e = engines.get(name);
    if (e == null) {
      throw new IllegalArgumentException(
          "unknown engine: \"" + name + "\" (known: " + String.join(", ", engines.keySet()) + ")");
    }
    return e;
  }

  /**
   * The spellings of {@code spellings} that serve their engine's {@code signal}, one set per engine
   * in the order they come. The queue-while-preempting rule compares each engine's queue with its
   * own preemptions ({@code Signal.PREEMPTIONS}) and diagnosis reads the same sets, so that its
   * symptom is the rule's; NVIDIA NIM's spelling of vLLM's names serves no preemption counter and
   * is in none.
   */
  public List<Set<Spelling>> servingBy(Signal signal, List<Spelling> spellings) {
    Map<String, Set<Spelling>> byEngine = new LinkedHashMap<>();
    for (Spelling s : spellings) {
      if (serves(signal, s)) {
        byEngine.computeIfAbsent(s.engine(), k -> new java.util.LinkedHashSet<>()).add(s);
      }
    }
    List<Set<Spelling>> out = new ArrayList<>();
    byEngine.values().forEach(one -> out.add(Collections.unmodifiableSet(one)));
    return List.copyOf(out);
  }

  /**
   * Whether spelling {@code s} serves a family of its engine's {@code signal}: NVIDIA NIM's subset
   * of vLLM's names lacks {@code num_preemptions_total}, so its waiting requests are a slot's.
   */
  public boolean serves(Signal signal, Spelling s) {
    EngineCatalog engine = engine(s.engine());
    for (SignalSource src : engine.sources(signal)) {
      for (String m : src.metrics()) {
        if (engine.serves(s.variant(), m)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The engine a family name belongs to, with its entries and variant, if any. */
  public Optional<Identified> identifyFamily(String family) {
    for (EngineCatalog e : engines.values()) {
      Optional<EngineCatalog.Match> m = e.identifyFamily(family);
      if (m.isPresent()) {
        return Optional.of(new Identified(e, m.get()));
      }
    }
    return Optional.empty();
  }

  /**
   * The engine a family whose series carry {@code labelNames} ({@code null}: unknown) belongs to: a
   * spelling that names the labels telling it apart (TensorRT-LLM 1.0's {@code engine_type} on
   * names NVIDIA NIM shares) wins over one that does not.
   */
  public Optional<Identified> identifyFamily(String family, java.util.Set<String> labelNames) {
    Optional<Identified> plain = Optional.empty();
    for (EngineCatalog e : engines.values()) {
      Optional<EngineCatalog.Match> m = e.identifyFamily(family, labelNames);
      if (m.isPresent()) {
        if (!m.get().variant().requiredLabels().isEmpty()) {
          return Optional.of(new Identified(e, m.get()));
        }
        if (plain.isEmpty()) {
          plain = Optional.of(new Identified(e, m.get()));
        }
      }
    }
    return plain;
  }

  /**
   * The labels that tell another engine's spelling of {@code family} from {@code engine}'s: the
   * required labels of every other engine's spelling that names a family so (TensorRT-LLM 1.0's
   * {@code engine_type} on {@code time_to_first_token_seconds}, which NVIDIA NIM serves as vLLM's
   * without it). A selector of {@code engine}'s plain spelling says each of them is empty, or it
   * reads the other engine's series too. Empty when no other engine shares the name.
   */
  public java.util.SortedSet<String> labelsTellingApart(EngineCatalog engine, String family) {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (EngineCatalog o : engines.values()) {
      if (o.engine().equals(engine.engine())) {
        continue;
      }
      for (NameVariant v : o.variants()) {
        if (v.requiredLabels().isEmpty()) {
          continue;
        }
        for (MetricEntry m : o.metrics()) {
          if (o.serves(v, m.name()) && m.familyName(v).equals(family)) {
            out.addAll(v.requiredLabels());
          }
        }
      }
    }
    return java.util.Collections.unmodifiableSortedSet(out);
  }

  /**
   * The matchers that keep a selector of {@code family}, spelled as {@code variant} of {@code
   * engine}, to that engine's series: a spelling that requires labels says each is set ({@code
   * engine_type!=""}: TensorRT-LLM 1.0's unprefixed names), and a spelling whose name another
   * engine's labelled spelling shares says each of those is empty ({@code engine_type=""}: NVIDIA
   * NIM's {@code time_to_first_token_seconds}); empty when the name alone tells the engine. Every
   * query of an engine family (dashboard, alert pack, SLO rules, diagnosis) takes its spelling's
   * matchers from here, so a TensorRT-LLM 1.0 pod is read as TensorRT-LLM and a NIM pod as vLLM,
   * each once.
   */
  public List<String> matchersTellingApart(
      EngineCatalog engine, NameVariant variant, String family) {
    List<String> out = new ArrayList<>();
    variant.requiredLabels().forEach(l -> out.add(l + "!=\"\""));
    if (variant.requiredLabels().isEmpty()) {
      labelsTellingApart(engine, family).forEach(l -> out.add(l + "=\"\""));
    }
    return List.copyOf(out);
  }

  /** A family with the engine it belongs to. */
  public record Identified(EngineCatalog engine, EngineCatalog.Match match) {}
}
