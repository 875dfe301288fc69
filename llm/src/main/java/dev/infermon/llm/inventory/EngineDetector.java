package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.LabelSpec;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.catalog.WriterGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells a target's engine, release range and enabled features from the families it exposes, using
 * the catalog's signatures: a release line is consistent when every family present exists in it;
 * among those, the lines where every always-present, eagerly created family is present win (when
 * any do; a truncated page or a family without samples yet falls back to consistency alone).
 * Stateless; thread-safe.
 */
public final class EngineDetector {
  private final Catalog catalog;

  public EngineDetector(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * Detects from a set of family names (as {@link PageFamilies} or the stored series name them).
   */
  public Detection detect(Set<String> families) {
    return detect(families, Map.of());
  }

  /**
   * Detects from the families with their label names: a label the catalog dates narrows the range
   * too (SGLang's {@code tp_rank} from v0.4.10; a required {@code moe_ep_rank} absent: before
   * v0.5.7), unless no release would be left (a label the catalog has wrong, a relabelled page).
   */
  public Detection detect(Map<String, FamilyInfo> families) {
    return detect(families.keySet(), families);
  }

  private Detection detect(Set<String> families, Map<String, FamilyInfo> infos) {
    // votes per spelling: a target speaks one spelling of one engine
    Map<Spelling, Set<String>> votes = new LinkedHashMap<>();
    Map<Spelling, EngineCatalog> engines = new LinkedHashMap<>();
    for (String f : families) {
      catalog
          .identifyFamily(f, labelNames(infos, f))
          .ifPresent(
              id -> {
                if (id.match().entries().get(0).versionEvidence()) {
                  Spelling sp = new Spelling(id.engine().engine(), id.match().variant());
                  votes.computeIfAbsent(sp, k -> new LinkedHashSet<>()).add(f);
                  engines.put(sp, id.engine());
                }
              });
    }
    Spelling spelling = null;
    for (Map.Entry<Spelling, Set<String>> v : votes.entrySet()) {
      if (unprefixedOfPrefixedEngine(engines.get(v.getKey()), v.getKey())
          && v.getValue().size() < LOOKALIKE_MIN) {
        continue; // a generic name or two (prompt_tokens_total) does not make a NIM
      }
      if (spelling == null || v.getValue().size() > votes.get(spelling).size()) {
        spelling = v.getKey();
      }
    }
    // a router's page is the router's, even where the engine catalog knows its names too (NVIDIA
    // Dynamo's frontend: catalogued as engine dynamo's for lint and dating, to the dashboard a
    // router in front of the workers, by routers.yaml's signature)
    EngineCatalog engine =
        spelling == null
                || routersOwn(families, spelling.prefix())
                || catalog.nonEngine().router(families).isPresent()
            ? null
            : engines.get(spelling);
    if (engine == null) {
      return new Detection(
          Detection.UNKNOWN, "", null, List.of(), List.of(), null, lookalike(families));
    }
    List<MetricEntry> present = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    Set<String> features = new LinkedHashSet<>();
    String prefix = spelling.prefix();
    for (String f : families) {
      java.util.Optional<EngineCatalog.Match> m = engine.identifyFamily(f, labelNames(infos, f));
      if (m.isPresent()) {
        MetricEntry e = m.get().entries().get(0);
        if (e.versionEvidence()) {
          present.addAll(ofType(m.get().entries(), infos.get(f)));
        }
        if (e.condition().gated()) {
          features.add(e.condition().flag());
        }
      } else if (!prefix.isEmpty() && f.startsWith(prefix) && !ignored(engine, f)) {
        unknown.add(f);
      } else {
        wrapperGate(engine, f).ifPresent(features::add);
      }
    }
    List<ReleaseLine> consistent = new ArrayList<>();
    List<String> spelledBy = spelling.variant().releases();
    for (ReleaseLine v : engine.versions()) {
      // a spelling only some releases write (TensorRT-LLM's unprefixed names: 1.0) dates the page
      // to those releases, whatever later ones renamed the same families to
      if (allExistIn(present, v) && (spelledBy.isEmpty() || spelledBy.contains(v.name()))) {
        consistent.add(v);
      }
    }
    List<ReleaseLine> labelled = new ArrayList<>();
    for (ReleaseLine v : consistent) {
      if (labelsAgree(engine, infos, v)) {
        labelled.add(v);
      }
    }
    if (!labelled.isEmpty()) {
      consistent = labelled;
    }
    if (engine.variants().get(0).prefix().equals(prefix)) {
      for (WriterGroup g : engine.writers()) {
        List<ReleaseLine> written = new ArrayList<>();
        for (ReleaseLine v : consistent) {
          if (complete(engine, g, families, prefix, v)) {
            written.add(v);
          }
        }
        if (!written.isEmpty()) { // else the page lacks some of them anyway (cut): no evidence
          consistent = written;
        }
      }
    }
    List<ReleaseLine> strict = new ArrayList<>();
    for (ReleaseLine v : consistent) {
      if (signaturePresent(engine, families, prefix, v)) {
        strict.add(v);
      }
    }
    List<ReleaseLine> chosen = strict.isEmpty() ? consistent : strict;
    ReleaseRange range =
        chosen.isEmpty() ? null : new ReleaseRange(chosen.get(0), chosen.get(chosen.size() - 1));
    return new Detection(
        engine.engine(), prefix, range, new ArrayList<>(features), unknown, spelling, null);
  }

  /**
   * The gate of {@code family} when it is a gated family of a process that runs {@code engine}
   * inside it rather than one running inside the engine: an NVIDIA Dynamo worker's {@code
   * dynamo_component_*} on its system server page (DYN_SYSTEM_PORT) beside its vLLM's families, so
   * the target's features say it is served through that process. LMCache's families (runs_in vllm)
   * are the engine's own process's and name nothing.
   */
  private java.util.Optional<String> wrapperGate(EngineCatalog engine, String family) {
    return catalog
        .identifyFamily(family)
        .filter(id -> !id.engine().engine().equals(engine.engine()))
        .filter(id -> !id.engine().runsIn().equals(engine.engine()))
        .map(id -> id.match().entries().get(0).condition())
        .filter(c -> c.gated())
        .map(c -> c.flag());
  }

  /** The label names of a family's series, or null when unknown (a family set without labels). */
  private static Set<String> labelNames(Map<String, FamilyInfo> infos, String family) {
    FamilyInfo info = infos.get(family);
    return info == null ? null : info.labelNames();
  }

  /** The unprefixed spelling of an engine that has prefixed ones too (vLLM's NIM spelling). */
  private static boolean unprefixedOfPrefixedEngine(EngineCatalog e, Spelling s) {
    return s.prefix().isEmpty() && e.variants().size() > 1;
  }

  /** Families an engine's names must account for before a target is said to look like it. */
  static final int LOOKALIKE_MIN = 3;

  /**
   * The engine whose names most of {@code families} are, under a prefix none of its variants has
   * ({@code vllm_}, none for SGLang, {@code myteam_sglang:}), when at least {@link #LOOKALIKE_MIN}
   * distinct names say so (generic names such as {@code prompt_tokens_total} alone do not).
   */
  private Lookalike lookalike(Set<String> families) {
    Map<String, Set<String>> votes = new LinkedHashMap<>();
    Map<String, EngineCatalog> engines = new LinkedHashMap<>();
    for (EngineCatalog e : catalog.engines()) {
      if (e.gpuExporter()) {
        continue; // a GPU exporter's names are no engine's that lost a prefix
      }
      for (MetricEntry m : e.metrics()) {
        if (!m.versionEvidence() || m.prefixless()) {
          continue;
        }
        for (String f : families) {
          if (!f.endsWith(m.name())) {
            continue;
          }
          String seen = f.substring(0, f.length() - m.name().length());
          if ((seen.isEmpty() || seen.endsWith("_") || seen.endsWith(":"))
              && e.spelling(seen).isEmpty()) {
            String k = e.engine() + "|" + seen;
            votes.computeIfAbsent(k, x -> new java.util.TreeSet<>()).add(f);
            engines.put(k, e);
          }
        }
      }
    }
    String best = null;
    for (Map.Entry<String, Set<String>> v : votes.entrySet()) {
      if (v.getValue().size() >= LOOKALIKE_MIN
          && (best == null || v.getValue().size() > votes.get(best).size())) {
        best = v.getKey();
      }
    }
    if (best == null) {
      return null;
    }
    EngineCatalog e = engines.get(best);
    String seen = best.substring(best.indexOf('|') + 1);
    Spelling use = Spelling.defaultOf(e);
    for (Spelling s : e.spellings()) {
      // vllm_ is vllm: with its colon replaced: keep to the form the pipeline meant
      if (!s.prefix().isEmpty() && s.prefix().replace(':', '_').equals(seen)) {
        use = s;
      }
    }
    List<String> examples = new ArrayList<>(votes.get(best));
    return new Lookalike(
        e.engine(), e.title(), seen, use, examples.subList(0, Math.min(3, examples.size())));
  }

  private static boolean ignored(EngineCatalog engine, String family) {
    for (String p : engine.ignorePrefixes()) {
      if (family.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The entries of a family's name with the type the page declares, when the catalog has that type
   * among them: a name whose type changed dates the page by its type (TGI's skipped tokens, a
   * histogram until v2.3 and a summary since).
   */
  private static List<MetricEntry> ofType(List<MetricEntry> entries, FamilyInfo info) {
    if (info == null || info.type() == null) {
      return entries;
    }
    List<MetricEntry> typed = new ArrayList<>();
    for (MetricEntry e : entries) {
      if (e.type() == info.type()) {
        typed.add(e);
      }
    }
    return typed.isEmpty() ? entries : typed;
  }

  /** Every present family (grouped by name) has an entry that exists in {@code v}. */
  private static boolean allExistIn(List<MetricEntry> present, ReleaseLine v) {
    Map<String, Boolean> ok = new LinkedHashMap<>();
    for (MetricEntry e : present) {
      ok.merge(e.name(), e.existsIn(v), Boolean::logicalOr);
    }
    return !ok.containsValue(false);
  }

  /**
   * Every family with series agrees with {@code v} on the labels the catalog dates: each label it
   * carries is one {@code v} has, and each label {@code v} requires is there. Labels the catalog
   * does not list (target labels, custom labels) say nothing; a family shown without series (HELP
   * and TYPE only) neither.
   */
  private static boolean labelsAgree(
      EngineCatalog engine, Map<String, FamilyInfo> infos, ReleaseLine v) {
    for (FamilyInfo info : infos.values()) {
      if (info.labelNames().isEmpty()) {
        continue;
      }
      java.util.Optional<EngineCatalog.Match> m =
          engine.identifyFamily(info.name(), info.labelNames());
      if (m.isEmpty()) {
        continue;
      }
      for (MetricEntry e : m.get().entries()) {
        if (!e.existsIn(v) || e.openLabels() || !e.versionEvidence()) {
          continue;
        }
        for (LabelSpec l : e.labels()) {
          boolean has = info.labelNames().contains(l.name());
          boolean somewhere =
              e.labels().stream().anyMatch(o -> o.name().equals(l.name()) && o.in(v));
          if ((has && !somewhere) || (!has && l.in(v) && !l.optional())) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /**
   * With one family of the group present, every family of it that {@code v} shows is present too:
   * SGLang's token counters without {@code num_requests_total} mean a release before it. Only in
   * the engine's own spelling (wrappers may drop zero samples).
   */
  private static boolean complete(
      EngineCatalog engine, WriterGroup g, Set<String> families, String prefix, ReleaseLine v) {
    if (g.metrics().stream().noneMatch(n -> families.contains(prefix + n))) {
      return true;
    }
    for (String n : g.metrics()) {
      boolean shown = engine.entries(n).stream().anyMatch(e -> e.exposedIn(v));
      if (shown && !families.contains(prefix + n)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the page carries a name that only a router has under the engine's own prefix ({@code
   * vllm:current_qps}: vLLM production-stack's router reuses {@code vllm:}, and its {@code
   * vllm:num_requests_running} is per backend, not an engine's): then the target is the router.
   */
  private boolean routersOwn(Set<String> families, String prefix) {
    if (prefix.isEmpty()) {
      return false;
    }
    for (String f : families) {
      if (f.startsWith(prefix)
          && catalog.identifyFamily(f).isEmpty()
          && catalog.nonEngine().lookup(f).isPresent()) {
        return true;
      }
    }
    return false;
  }

  private static boolean signaturePresent(
      EngineCatalog engine, Set<String> families, String prefix, ReleaseLine v) {
    for (MetricEntry e : engine.metrics()) {
      if (e.lazy()
          || !e.versionEvidence()
          || e.condition().kind() != dev.infermon.llm.catalog.Condition.Kind.ALWAYS
          || !e.exposedIn(v)
          || e.prefixless()) {
        continue;
      }
      if (!families.contains(prefix + e.name())) {
        return false;
      }
    }
    return true;
  }
}
