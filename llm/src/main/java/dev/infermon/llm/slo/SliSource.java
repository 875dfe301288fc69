package dev.infermon.llm.slo;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.BucketBounds;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseBounds;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where one engine measures an SLI, from the catalog's signal mapping: the histograms of a latency
 * SLI, or the finished and failed request counters of the success SLI, in every spelling of the
 * engine that carries the family ({@code vllm:}, {@code ray_vllm:}, {@code ray_vllm_}, NIM's
 * unprefixed names; {@code sglang:} and the gateway's {@code sglang_}): one selector over all the
 * names, so a target counts in whatever spelling it exposes. A latency SLI has one histogram per
 * family the signal names, in the catalog's order (vLLM's inter-token latency: {@code
 * inter_token_latency_seconds} from 0.11, {@code time_per_output_token_seconds} before and on NIM);
 * the rules read a target's first one only. The SLO lint check (lint's {@code SloCheck}) judges
 * thresholds with the same sources and placements the rules are generated from. Immutable.
 *
 * @param engine the engine
 * @param families the latency histograms (latency SLIs), preferred first; empty for success
 * @param total the counters of all finished requests (success SLI), summed
 * @param failed the counters of failed requests (success SLI), summed
 * @param catalog the catalog the engine is of: which other engine spells a name alike
 */
public record SliSource(
    EngineCatalog engine,
    List<Family> families,
    List<Counter> total,
    List<Counter> failed,
    Catalog catalog) {
  public SliSource {
    families = List.copyOf(families);
  }

  /**
   * One latency histogram of an SLI.
   *
   * @param name the family, without prefix
   * @param entry its catalog entry
   */
  public record Family(String name, MetricEntry entry) {
    public Family {
      if (name == null || entry == null || !entry.name().equals(name)) {
        throw new IllegalArgumentException("a latency family needs its own catalog entry: " + name);
      }
    }
  }

  /**
   * One counter a success SLI sums: its sample names and the matchers that select it. A spelling
   * told from another by a label (TensorRT-LLM 1.0's unprefixed names carry {@code engine_type},
   * NIM's do not) is a counter of its own, selected with that label; and the other spelling of the
   * same name is one of its own too, selected without it ({@code engine_type=""}).
   *
   * @param names the sample names, one per spelling
   * @param matchers the source's matchers ({@code finished_reason=~"abort|error"}), the labels the
   *     spelling requires and those it must not carry
   */
  public record Counter(List<String> names, List<String> matchers) {
    public Counter {
      if (names.isEmpty()) {
        throw new IllegalArgumentException("a counter needs a name");
      }
      names = List.copyOf(names);
      matchers = List.copyOf(matchers);
    }
  }

  /**
   * The engines whose rules can measure {@code slo} exactly: the success SLI wherever the counters
   * exist; a latency SLI where the threshold is a bucket bound (or the bounds are not fixed).
   */
  public static List<SliSource> exact(LlmConfig.Slo slo, Catalog catalog) {
    List<SliSource> out = new ArrayList<>();
    for (EngineCatalog e : candidates(slo, catalog)) {
      Optional<SliSource> src = of(e, slo.sli(), catalog);
      if (src.isEmpty()) {
        continue;
      }
      if (slo.sli().equals("success")) {
        out.add(src.get());
        continue;
      }
      // a family without the bound gets no term; its engine's other families still count
      List<Family> onBound = new ArrayList<>();
      for (Family f : src.get().families()) {
        if (src.get().placement(f, slo).map(p -> p.onBound()).orElse(true)) {
          onBound.add(f);
        }
      }
      if (!onBound.isEmpty()) {
        out.add(new SliSource(e, onBound, null, null, catalog));
      }
    }
    return out;
  }

  /** The engines {@code slo} is about: its {@code engine}, else every inference engine. */
  public static List<EngineCatalog> candidates(LlmConfig.Slo slo, Catalog catalog) {
    List<EngineCatalog> out = new ArrayList<>();
    for (EngineCatalog e : catalog.engines()) {
      if (slo.engine().isEmpty() ? !e.gpuExporter() : e.engine().equals(slo.engine())) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * Where the latency threshold of {@code slo} falls among the bounds of histogram {@code f} in the
   * newest release that has it (the engine's newest, or the last before its removal); empty when
   * the bounds are not fixed.
   */
  public Optional<BucketBounds.Placement> placement(Family f, LlmConfig.Slo slo) {
    return BucketBounds.catalogBounds(f.entry(), newestWith(f.entry()))
        .filter(b -> !b.isEmpty())
        .map(b -> BucketBounds.place(seconds(slo), b));
  }

  /**
   * The releases of histogram {@code f} whose bucket sets lack the threshold of {@code slo}
   * although the newest has it (vLLM 0.4-0.7 stop time to first token at 10 s): each run with the
   * bound the rules read there instead, the largest below the threshold; empty when every release
   * has it, or the newest lacks it too (then the family has no terms at all).
   */
  public List<Fallback> fallbacks(Family f, LlmConfig.Slo slo) {
    if (placement(f, slo).map(p -> !p.onBound()).orElse(true)) {
      return List.of();
    }
    double t = seconds(slo);
    List<Fallback> out = new ArrayList<>();
    for (ReleaseBounds.Run r :
        ReleaseBounds.lacking(ReleaseBounds.runs(engine, engine.entries(f.name()), null), t)) {
      BucketBounds.Placement p = r.place(t);
      if (p.lower() != null) {
        out.add(new Fallback(r, p.lower()));
      }
    }
    return out;
  }

  /**
   * Releases whose buckets lack an SLO's threshold, and the bound read there instead.
   *
   * @param run the releases and their bounds
   * @param bound the largest bound of the run below the threshold
   */
  public record Fallback(ReleaseBounds.Run run, double bound) {}

  private ReleaseLine newestWith(MetricEntry m) {
    List<ReleaseLine> vs = engine.versions();
    for (int i = vs.size() - 1; i >= 0; i--) {
      if (m.existsIn(vs.get(i))) {
        return vs.get(i);
      }
    }
    return engine.newest();
  }

  /** The latency threshold of {@code slo} in seconds. */
  public static double seconds(LlmConfig.Slo slo) {
    return slo.threshold().toNanos() / 1e9;
  }

  /** The source of {@code sli} for {@code engine} of {@code catalog}, if the engine measures it. */
  public static Optional<SliSource> of(EngineCatalog engine, String sli, Catalog catalog) {
    if (sli.equals("success")) {
      List<SignalSource> total = engine.sources(Signal.REQUESTS_FINISHED);
      List<SignalSource> failed = engine.sources(Signal.REQUESTS_FAILED);
      if (total.isEmpty() || failed.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          new SliSource(
              engine,
              List.of(),
              counters(engine, total, catalog),
              counters(engine, failed, catalog),
              catalog));
    }
    // every family the signal names: a release measures the SLI in one of them (vLLM's ITL is
    // time_per_output_token_seconds before 0.11, inter_token_latency_seconds from 0.11)
    java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
    for (SignalSource src : engine.sources(signal(sli))) {
      names.addAll(src.metrics());
    }
    List<Family> families = new ArrayList<>();
    for (String name : names) {
      List<MetricEntry> entries = engine.entries(name);
      if (!entries.isEmpty()) {
        families.add(new Family(name, entries.get(entries.size() - 1)));
      }
    }
    return families.isEmpty()
        ? Optional.empty()
        : Optional.of(new SliSource(engine, families, null, null, catalog));
  }

  static Signal signal(String sli) {
    switch (sli) {
      case "ttft":
        return Signal.TTFT;
      case "tpot":
        return Signal.TPOT;
      case "itl":
        return Signal.ITL;
      case "e2e":
        return Signal.E2E_LATENCY;
      default:
        throw new IllegalArgumentException("not a latency SLI: \"" + sli + "\"");
    }
  }

  /**
   * Every counter of {@code sources}, once: the sources are the engine's alternatives (a release's
   * families, a product's), and a page has the families of one, so summing them all counts each
   * request once wherever it is counted. Each family of a source ({@code finished} = successes +
   * failures where an engine counts them apart) is a counter.
   */
  static List<Counter> counters(EngineCatalog engine, List<SignalSource> sources, Catalog catalog) {
    java.util.LinkedHashSet<Counter> out = new java.util.LinkedHashSet<>();
    for (SignalSource src : sources) {
      for (String metric : src.metrics()) {
        // the plain spellings last, as the rules have always listed them
        out.addAll(spellings(engine, catalog, metric, src.series(), matchers(src), false));
      }
    }
    return List.copyOf(out);
  }

  /**
   * The sample names of {@code metric} + {@code suffix} as counters: the spellings no label tells
   * apart in one, each spelling that requires labels in its own, selected with them (TensorRT-LLM
   * 1.0's {@code time_to_first_token_seconds} is NIM's name too, and only its {@code engine_type}
   * keeps NIM's series out of TensorRT-LLM's SLI), and each spelling whose name another engine's
   * labelled spelling shares in its own, selected without those labels (NIM's {@code
   * engine_type=""}, or vLLM's SLI reads TensorRT-LLM 1.0's series).
   */
  List<Counter> spellings(String metric, String suffix) {
    return spellings(engine, catalog, metric, suffix, List.of(), true);
  }

  private static List<Counter> spellings(
      EngineCatalog engine,
      Catalog catalog,
      String metric,
      String suffix,
      List<String> matchers,
      boolean plainFirst) {
    List<Counter> out = new ArrayList<>();
    List<String> plain = new ArrayList<>();
    for (NameVariant v : engine.variants()) {
      // NIM's spelling carries only its subset (no inter_token_latency_seconds), nor a family
      // another spelling owns
      if (!engine.serves(v, metric)) {
        continue;
      }
      String family = v.familyName(metric);
      List<String> m = new ArrayList<>(matchers);
      m.addAll(catalog.matchersTellingApart(engine, v, family));
      if (m.size() == matchers.size()) {
        plain.add(family + suffix);
      } else {
        out.add(new Counter(List.of(family + suffix), m));
      }
    }
    if (!plain.isEmpty()) {
      out.add(plainFirst ? 0 : out.size(), new Counter(plain, matchers));
    }
    return out;
  }

  /** The matchers a signal source adds ({@code finished_reason=~"abort|error"}). */
  static List<String> matchers(SignalSource src) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> m : src.match().entrySet()) {
      out.add(m.getKey() + (m.getValue().isEmpty() ? "=" : "=~") + quote(m.getValue()));
    }
    return out;
  }

  static String quote(String v) {
    return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
