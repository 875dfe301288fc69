package dev.infermon.lint.checks;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.NonEngineMetric;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.StoredInventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What queries are checked against: the engine catalog alone, or the catalog plus what endpoints
 * really expose (an {@link Inventory} from a live scrape or from what is stored). With endpoints,
 * "exposed" means some target of the metric's engine has the family; an engine no checked target
 * runs is judged by the catalog's newest release instead, so a dashboard with SGLang panels does
 * not fail against a vLLM-only fleet. Immutable; thread-safe.
 */
public final class Reference {
  /** Where "exposed" comes from. */
  public enum Mode {
    /** The catalog's newest release of each engine. */
    CATALOG,
    /** Endpoints scraped once. */
    LIVE,
    /** Series in the store (embedded or remote), through a QueryBackend. */
    STORED
  }

  /** Labels every scraped series may carry besides its own (target labels, and the name). */
  static final Set<String> TARGET_LABELS = targetLabels();

  /**
   * The target labels a series carries wherever it is scraped: Prometheus's {@code job} and {@code
   * instance}, and what prometheus-operator's pod and service monitors add. infermon's inference
   * discovery adds more ({@code node}, {@code role}, ...): only a stored reference shows them.
   */
  static final Set<String> SCRAPE_LABELS =
      Set.of(
          "__name__",
          "job",
          "instance",
          "namespace",
          "pod",
          "container",
          "service",
          "endpoint",
          "exported_namespace",
          "exported_pod",
          "exported_container");

  private static final String CREATED = "_created";

  private final Catalog catalog;
  private final Inventory inventory;
  private final Mode mode;

  private Reference(Catalog catalog, Inventory inventory, Mode mode) {
    if (catalog == null || inventory == null || mode == null) {
      throw new IllegalArgumentException("catalog, inventory and mode are required");
    }
    this.catalog = catalog;
    this.inventory = inventory;
    this.mode = mode;
  }

  /** The catalog alone: names and labels as the newest release of each engine has them. */
  public static Reference catalogOnly(Catalog catalog) {
    return new Reference(catalog, Inventory.EMPTY, Mode.CATALOG);
  }

  /** The catalog and the targets of {@code inventory}. */
  public static Reference of(Catalog catalog, Inventory inventory, Mode mode) {
    return new Reference(catalog, inventory, mode);
  }

  public Catalog catalog() {
    return catalog;
  }

  public Inventory inventory() {
    return inventory;
  }

  public Mode mode() {
    return mode;
  }

  /** What the reference knows about a sample name ({@code vllm:ttft_seconds_bucket}). */
  public MetricInfo resolve(String sample) {
    return resolve(sample, catalogHit(sample));
  }

  /**
   * What the reference knows about {@code sample} read as {@code hit}'s spelling: one told apart by
   * labels (TensorRT-LLM 1.0's unprefixed names with {@code engine_type}, which NVIDIA NIM's carry
   * none of) is judged by the targets detected in it only, never by the other engine's series of
   * the same name.
   */
  MetricInfo resolve(String sample, CatalogHit hit) {
    NonEngineMetric router = catalog.nonEngine().lookup(sample).orElse(null);
    if (hit == null && sample.endsWith(CREATED)) {
      MetricInfo created = created(sample);
      if (created != null) {
        return created;
      }
    }
    boolean labelled = hit != null && !hit.variant().requiredLabels().isEmpty();
    List<TargetInventory> engineTargets = hit == null ? List.of() : targetsOf(hit.engine());
    // the engine's targets judge a labelled spelling none of them uses (TensorRT-LLM 1.0's names
    // against trtllm_ pods): absent there, whatever the catalog's newest release has
    boolean engineHasTargets = !engineTargets.isEmpty();
    if (labelled) {
      engineTargets = engineTargets.stream().filter(t -> inSpelling(t, hit)).toList();
    }
    boolean judgedByTargets = mode != Mode.CATALOG && (hit == null || engineHasTargets);
    // an engine's family is exposed where the engine's targets have it: a router's gauge of the
    // same name (production-stack's vllm:num_requests_swapped, per backend) is the router's
    List<TargetInventory> scanned = engineTargets.isEmpty() ? inventory.targets() : engineTargets;
    List<FamilyInfo> seen = new ArrayList<>();
    List<TargetInventory> exposing = new ArrayList<>();
    for (TargetInventory t : scanned) {
      if (labelled && !inSpelling(t, hit)) {
        continue;
      }
      for (FamilyInfo f : t.families().values()) {
        if (samples(f, hit).contains(sample)) {
          seen.add(f);
          exposing.add(t);
        }
      }
    }
    boolean exposed;
    if (judgedByTargets) {
      exposed = !seen.isEmpty();
    } else {
      exposed = hit != null && hit.entryIn(hit.engine().newest()).isPresent();
    }
    MetricType type = MetricType.UNKNOWN;
    Set<String> labels = null;
    TreeSet<Double> bounds = new TreeSet<>();
    for (FamilyInfo f : seen) {
      if (f.type() != MetricType.UNKNOWN) {
        type = f.type();
      }
      if (labels == null) {
        labels = new TreeSet<>();
      }
      labels.addAll(f.labelNames());
      bounds.addAll(f.bounds());
    }
    if (type == MetricType.UNKNOWN && hit != null) {
      type = hit.entries().get(0).type();
    } else if (hit != null) {
      type = whatTheValueIs(hit, type);
    }
    if (type == MetricType.UNKNOWN && router != null) {
      type = router.type();
    }
    if (labels == null && hit != null && !judgedByTargets) {
      labels = hit.catalogLabels(hit.engine().newest());
    }
    Set<String> carried = null;
    if (labels != null) {
      carried = new TreeSet<>(labels);
      if (mode != Mode.STORED || !judgedByTargets) {
        carried.addAll(SCRAPE_LABELS);
      }
      carried.add("__name__");
      labels.addAll(TARGET_LABELS);
      // an inventory lists a family's labels without le and quantile
      if (sample.endsWith("_bucket")) {
        labels.add("le");
      } else if (type == MetricType.SUMMARY
          && !sample.endsWith("_sum")
          && !sample.endsWith("_count")) {
        labels.add("quantile");
      }
      if (hit != null) {
        labels.addAll(hit.variant().optionalLabels());
        carried.addAll(hit.variant().optionalLabels());
      }
      if (labels.contains("le")) {
        carried.add("le");
      }
      if (labels.contains("quantile")) {
        carried.add("quantile");
      }
    }
    return new MetricInfo(
        sample,
        hit,
        exposed,
        judgedByTargets,
        type,
        labels == null ? null : Set.copyOf(labels),
        List.copyOf(bounds),
        List.copyOf(exposing),
        router,
        false,
        carried == null ? null : Set.copyOf(carried));
  }

  /**
   * The type the catalog says a family's value is, when the page declares the type the catalog
   * records as its wrong TYPE line ({@code declared_type}: llama.cpp types its high watermark
   * {@code n_tokens_max} counter): a level read raw is right, whatever the TYPE line says.
   */
  private static MetricType whatTheValueIs(CatalogHit hit, MetricType declared) {
    for (MetricEntry m : hit.entries()) {
      if (m.declaredType() == declared && m.type() != declared) {
        return m.type();
      }
    }
    return declared;
  }

  private static boolean inSpelling(TargetInventory t, CatalogHit hit) {
    return t.engine().equals(hit.engine().engine())
        && t.detection().prefix().equals(hit.variant().prefix());
  }

  /**
   * The {@code _created} gauge of a catalogued counter or histogram: exposed where the family is,
   * by a release of an engine that writes them ({@code created_series}); null when the base is no
   * catalogued family.
   */
  private MetricInfo created(String sample) {
    String base = sample.substring(0, sample.length() - CREATED.length());
    for (String candidate : new String[] {base + "_total", base + "_count"}) {
      CatalogHit h = catalogHit(candidate);
      if (h == null || h.engine().createdSince() == null) {
        continue;
      }
      MetricInfo of = resolve(candidate);
      boolean writes = releases(h.engine()).last().atLeast(h.engine().createdSince());
      Set<String> labels = null;
      if (of.labels() != null) {
        labels = new TreeSet<>(of.labels());
        labels.remove("le");
      }
      return new MetricInfo(
          sample,
          h,
          of.exposed() && writes,
          of.judgedByTargets(),
          MetricType.GAUGE,
          labels == null ? null : Set.copyOf(labels),
          List.of(),
          of.targets(),
          null,
          true,
          of.carried());
    }
    return null;
  }

  /** Whether any target (or, without targets, the catalog) has the sample name. */
  public boolean exposed(String sample) {
    return resolve(sample).exposed();
  }

  /** The engine's targets in the inventory. */
  public List<TargetInventory> targetsOf(EngineCatalog engine) {
    List<TargetInventory> out = new ArrayList<>();
    for (TargetInventory t : inventory.targets()) {
      if (t.engine().equals(engine.engine())) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * The spellings the engine's targets use ({@code sglang_} behind the gateway), in target order;
   * empty without targets of the engine or in catalog mode.
   */
  public Set<Spelling> spellingsOf(EngineCatalog engine) {
    Set<Spelling> out = new LinkedHashSet<>();
    if (mode == Mode.CATALOG) {
      return out;
    }
    for (TargetInventory t : targetsOf(engine)) {
      if (t.detection().spelling() != null) {
        out.add(t.detection().spelling());
      }
    }
    return out;
  }

  /**
   * The release lines the engine's targets run: the union of their detected ranges, or the newest
   * line when no target of the engine was checked or none could be dated.
   */
  public ReleaseRange releases(EngineCatalog engine) {
    ReleaseLine first = null;
    ReleaseLine last = null;
    for (TargetInventory t : targetsOf(engine)) {
      ReleaseRange r = t.detection().versions();
      if (r == null) {
        continue;
      }
      first = first == null || r.first().compareTo(first) < 0 ? r.first() : first;
      last = last == null || r.last().compareTo(last) > 0 ? r.last() : last;
    }
    if (first == null) {
      return new ReleaseRange(engine.newest(), engine.newest());
    }
    return new ReleaseRange(first, last);
  }

  /** Every sample name the targets expose (empty in catalog mode). */
  public Set<String> exposedSamples() {
    Set<String> out = new LinkedHashSet<>();
    for (TargetInventory t : inventory.targets()) {
      for (FamilyInfo f : t.families().values()) {
        out.addAll(samples(f, catalogHit(f.name())));
      }
    }
    return out;
  }

  /**
   * The spelling told apart by labels that a selector of {@code sample} requiring {@code setLabels}
   * to be set reads ({@code time_to_first_token_seconds_bucket{engine_type!=""}} is TensorRT-LLM
   * 1.0's, not NVIDIA NIM's), or null when no such spelling names it.
   */
  public CatalogHit labelledHit(String sample, Set<String> setLabels) {
    for (EngineCatalog e : catalog.engines()) {
      for (NameVariant v : e.variants()) {
        if (v.requiredLabels().isEmpty() || !setLabels.containsAll(v.requiredLabels())) {
          continue;
        }
        for (MetricEntry m : e.metrics()) {
          if (e.serves(v, m.name()) && m.sampleNames(v).contains(sample)) {
            return new CatalogHit(e, e.entries(m.name()), v, m.familyName(v));
          }
        }
      }
    }
    return null;
  }

  /**
   * What a selector of {@code sample} requiring {@code setLabels} to be set reads when that is a
   * router's copies of an engine-named family, else null: production-stack's per-backend {@code
   * vllm:num_requests_running{server!=""}} is the router's gauge (routers.yaml's {@code shadows}
   * and {@code shadow_label}), which an engine's series never match. Known as the router's and, as
   * every router name, not judged against the endpoints.
   */
  public MetricInfo routerCopy(String sample, Set<String> setLabels) {
    for (dev.infermon.llm.catalog.Router r : catalog.nonEngine().routers()) {
      if (r.shadows().contains(sample) && setLabels.contains(r.shadowLabel())) {
        NonEngineMetric m = catalog.nonEngine().lookup(sample).orElse(null);
        if (m != null) {
          return new MetricInfo(
              sample, null, false, false, m.type(), null, List.of(), List.of(), m, false, null);
        }
      }
    }
    return null;
  }

  /** The catalog entry and spelling behind a sample name, or null when no engine has it. */
  public CatalogHit catalogHit(String sample) {
    for (EngineCatalog e : catalog.engines()) {
      Optional<String> family = e.familyOfSample(sample);
      if (family.isPresent()) {
        Optional<EngineCatalog.Match> m = e.identifyFamily(family.get());
        if (m.isPresent()) {
          return new CatalogHit(
              e, formOf(sample, m.get().entries()), m.get().variant(), family.get());
        }
      }
    }
    return null;
  }

  /**
   * The entries a sample can be of: a {@code _bucket} only of a histogram's, so a family that was a
   * histogram and is a summary now (TGI's {@code request_skipped_tokens} from 2.3) is judged by its
   * histogram entry and that entry's removal; every entry otherwise.
   */
  private static List<MetricEntry> formOf(String sample, List<MetricEntry> entries) {
    if (!sample.endsWith("_bucket")) {
      return entries;
    }
    List<MetricEntry> histograms =
        entries.stream()
            .filter(m -> m.type() == MetricType.HISTOGRAM || m.type() == MetricType.GAUGEHISTOGRAM)
            .toList();
    return histograms.isEmpty() ? entries : histograms;
  }

  /**
   * The sample names of an inventoried family: a histogram's {@code _bucket}, {@code _sum} and
   * {@code _count}, a summary's quantiles, sum and count. A stored family has no type, so its
   * catalog entry (or bucket bounds) decides.
   */
  private static Set<String> samples(FamilyInfo f, CatalogHit hit) {
    MetricType t = f.type();
    if (t == MetricType.UNKNOWN && hit != null && hit.family().equals(f.name())) {
      t = hit.entries().get(0).type();
    }
    if (t == MetricType.UNKNOWN && !f.bounds().isEmpty()) {
      t = MetricType.HISTOGRAM;
    }
    String n = f.name();
    if (t == MetricType.HISTOGRAM || t == MetricType.GAUGEHISTOGRAM) {
      return Set.of(n + "_bucket", n + "_sum", n + "_count");
    }
    if (t == MetricType.SUMMARY) {
      return Set.of(n, n + "_sum", n + "_count");
    }
    return Set.of(n);
  }

  private static Set<String> targetLabels() {
    Set<String> s = new LinkedHashSet<>(StoredInventory.TARGET_LABELS);
    s.add("__name__");
    s.add("exported_namespace");
    s.add("exported_pod");
    s.add("exported_container");
    return Set.copyOf(s);
  }

  /**
   * A sample name found in the catalog.
   *
   * @param engine the engine
   * @param entries the family's entries (several when its type changed between releases)
   * @param variant the spelling it was written in
   * @param family the exposed family name ({@code vllm:time_to_first_token_seconds})
   */
  public record CatalogHit(
      EngineCatalog engine, List<MetricEntry> entries, NameVariant variant, String family) {
    public CatalogHit {
      entries = List.copyOf(entries);
    }

    /** The entry that exists in {@code v} (hidden ones included), if any. */
    public Optional<MetricEntry> entryIn(ReleaseLine v) {
      for (MetricEntry m : entries) {
        if (m.exposedIn(v)) {
          return Optional.of(m);
        }
      }
      return Optional.empty();
    }

    /** The newest entry (the one whose history matters most). */
    public MetricEntry latest() {
      return entries.get(entries.size() - 1);
    }

    /** The label names the catalog gives the family in {@code v}, or null for open labels. */
    Set<String> catalogLabels(ReleaseLine v) {
      MetricEntry m = entryIn(v).orElse(latest());
      if (m.openLabels()) {
        return null;
      }
      Set<String> out = new TreeSet<>();
      m.labels().forEach(l -> out.add(l.name()));
      if (m.type() == MetricType.HISTOGRAM) {
        out.add("le");
      } else if (m.type() == MetricType.SUMMARY) {
        out.add("quantile");
      }
      return out;
    }
  }
}
