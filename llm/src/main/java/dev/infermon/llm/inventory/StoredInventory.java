package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Builds the {@link Inventory} from what is stored, through a {@link QueryBackend} only (so it
 * works against a remote Prometheus too): the series of the engines' families seen in the last
 * {@code window}, grouped by target ({@code job} and {@code instance}), {@code up} for target
 * health, and what the samples of the families a signal reads did ({@link ActivityFamilies}).
 * Stateless; thread-safe when the backend is.
 */
public final class StoredInventory {
  /** The labels a scrape target attaches (the ones infermon's discovery sets). */
  public static final List<String> TARGET_LABELS =
      List.of("job", "instance", "namespace", "pod", "workload_name", "backend", "role", "node");

  private final Catalog catalog;
  private final EngineDetector detector;
  private final ActivityFamilies read;
  private final String namePattern;
  // the catalog's names of the families whose activity is read, that the series read selects
  private final Set<String> activityNames;

  public StoredInventory(Catalog catalog) {
    this.catalog = catalog;
    this.detector = new EngineDetector(catalog);
    this.read = ActivityFamilies.of(catalog);
    this.namePattern = namePattern();
    Pattern selected = Pattern.compile(namePattern);
    Set<String> names = new TreeSet<>();
    for (String n : read.sampleNames()) {
      String family = familyOf(n);
      if (family != null && read.read(family) && selected.matcher(n).matches()) {
        names.add(n);
      }
    }
    this.activityNames = Set.copyOf(names);
  }

  /**
   * The inventory as of {@code timeMs}, from series with samples in {@code [timeMs-window,
   * timeMs]}.
   */
  public Inventory read(QueryBackend backend, long timeMs, long windowMs) {
    Map<String, Map<String, String>> targetLabels = new LinkedHashMap<>();
    Map<String, Boolean> up = new LinkedHashMap<>();
    QueryResult r = backend.instantQuery("up", timeMs);
    if (r.value() instanceof Vector) {
      for (Sample s : ((Vector) r.value()).samples()) {
        String key = key(s.labels());
        targetLabels.put(key, targetLabels(s.labels(), false));
        up.put(key, s.value() == 1);
      }
    }
    Map<String, Map<String, FamilyNames>> labelNames = new LinkedHashMap<>();
    Map<String, Map<String, TreeSet<Double>>> bounds = new LinkedHashMap<>();
    Map<String, TreeSet<String>> models = new HashMap<>();
    List<Labels> series =
        backend.series(List.of("{__name__=~\"" + namePattern + "\"}"), timeMs - windowMs, timeMs);
    // tens of thousands of series share a few hundred names: resolve each name once (the catalog
    // lookup builds every variant's sample names and was most of the read's time); so with the
    // targets' keys and the buckets' bounds (a few dozen values over hundreds of thousands)
    Map<String, Optional<String>> families = new HashMap<>();
    Map<String, String> instances = new HashMap<>();
    Keys keys = new Keys();
    Map<String, Double> les = new HashMap<>();
    for (Labels l : series) {
      String sample = l.get("__name__");
      String family =
          families.computeIfAbsent(sample, n -> Optional.ofNullable(familyOf(n))).orElse(null);
      if (family == null) {
        continue;
      }
      String key = keys.of(l);
      targetLabels.computeIfAbsent(key, k -> targetLabels(l, true));
      instances.putIfAbsent(key, l.get("instance"));
      if (l.has("model_name")) {
        models.computeIfAbsent(key, k -> new TreeSet<>()).add(l.get("model_name"));
      }
      labelNames
          .computeIfAbsent(key, k -> new LinkedHashMap<>())
          .computeIfAbsent(family, k -> new FamilyNames())
          .add(l, sample.equals(family));
      String le = sample.endsWith("_bucket") ? l.get("le") : null;
      double bound = le == null ? Double.NaN : les.computeIfAbsent(le, StoredInventory::bound);
      if (!Double.isNaN(bound)) {
        bounds
            .computeIfAbsent(key, k -> new LinkedHashMap<>())
            .computeIfAbsent(family, k -> new TreeSet<>())
            .add(bound);
      }
    }
    Map<String, FamilyInfo.Activity> activity =
        activity(backend, timeMs, windowMs, families, labelNames, instances);
    List<TargetInventory> out = new ArrayList<>();
    // a fleet's targets share a few shapes (families and their label names): the detection is a
    // function of the shape alone (every stored family's type is UNKNOWN, and activity, bounds and
    // target labels are not read; the families' order breaks ties), so each shape is detected once
    // per read
    Map<List<Object>, Optional<Detection>> detected = new HashMap<>();
    for (Map.Entry<String, Map<String, String>> t : targetLabels.entrySet()) {
      String key = t.getKey();
      Map<String, FamilyInfo> infos = new LinkedHashMap<>();
      labelNames
          .getOrDefault(key, Map.of())
          .forEach(
              (f, names) ->
                  infos.put(
                      f,
                      new FamilyInfo(
                          f,
                          MetricType.UNKNOWN,
                          names.names,
                          new ArrayList<>(
                              bounds.getOrDefault(key, Map.of()).getOrDefault(f, new TreeSet<>())),
                          activity(activity, key, f))));
      Detection d =
          detected
              .computeIfAbsent(shape(infos), k -> detect(infos))
              .orElseGet(() -> fromBackendLabel(t.getValue().getOrDefault("backend", "")));
      out.add(
          new TargetInventory(
              t.getValue(),
              up.getOrDefault(key, true),
              d,
              infos,
              models(d, t.getValue(), models.getOrDefault(key, new TreeSet<>()))));
    }
    return new Inventory(out);
  }

  /**
   * The detection from a target's families, empty when they tell no engine and the target is no
   * router: a router's page (NVIDIA Dynamo's frontend, backend dynamo) is no engine's, whatever its
   * backend label says (engine reasons would otherwise count it as one more engine); any other
   * target is then told by its {@code backend} label.
   */
  private Optional<Detection> detect(Map<String, FamilyInfo> infos) {
    Detection d = detector.detect(infos);
    if (d.engine().equals(Detection.UNKNOWN)
        && catalog.nonEngine().router(infos.keySet()).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(d);
  }

  /**
   * What a detection reads of a target's families: their names and label names, in their order
   * (votes and unknown families follow it).
   */
  private static List<Object> shape(Map<String, FamilyInfo> infos) {
    List<Object> out = new ArrayList<>(infos.size() * 2);
    infos.forEach(
        (f, info) -> {
          out.add(f);
          out.add(info.labelNames());
        });
    return out;
  }

  /**
   * The models a target serves: its series' {@code model_name}, or for an engine whose page names
   * none (the catalog's {@code model_from_label}) the target label the compiler reads it from.
   */
  private TreeSet<String> models(Detection d, Map<String, String> labels, TreeSet<String> seen) {
    TreeSet<String> named = new TreeSet<>(seen);
    for (EngineCatalog e : catalog.engines()) {
      // a placeholder (TensorRT-LLM's "undefined") names no model: the label does
      if (e.engine().equals(d.engine())
          && e.modelPlaceholder().isPresent()
          && named.remove(e.modelPlaceholder().get())) {
        named.add(labels.getOrDefault(e.modelFromLabel(), e.modelPlaceholder().get()));
      }
    }
    if (!named.isEmpty()) {
      return named;
    }
    for (EngineCatalog e : catalog.engines()) {
      String value = labels.getOrDefault(e.modelFromLabel(), "");
      if (e.engine().equals(d.engine()) && !e.modelFromLabel().isEmpty() && !value.isEmpty()) {
        named.add(value);
      }
    }
    return named;
  }

  /**
   * A family's activity: UNKNOWN when nothing reads it ({@link ActivityFamilies}: its samples were
   * not selected), else what {@link #activity(QueryBackend, long, long, Map)} found, 0 throughout
   * when neither of its answers has the family.
   */
  private FamilyInfo.Activity activity(
      Map<String, FamilyInfo.Activity> found, String key, String family) {
    if (!read.read(family)) {
      return FamilyInfo.Activity.UNKNOWN;
    }
    return found.getOrDefault(key + "|" + family, FamilyInfo.Activity.ZERO);
  }

  /**
   * What each target's families did over the window, by {@code key|family} ({@link
   * ActivityQueries}), for the families whose activity is read ({@link ActivityFamilies}) by exact
   * name, among the names the series read selects: those it found for them and those the catalog
   * gives them (a name last written just before the window, which the subquery's look-back still
   * reaches).
   */
  private Map<String, FamilyInfo.Activity> activity(
      QueryBackend backend,
      long timeMs,
      long windowMs,
      Map<String, Optional<String>> families,
      Map<String, Map<String, FamilyNames>> labelNames,
      Map<String, String> instances) {
    Set<String> names = new TreeSet<>(activityNames);
    families.forEach(
        (sample, family) -> {
          if (family.isPresent() && read.read(family.get())) {
            names.add(sample);
          }
        });
    Map<String, Set<String>> present = new LinkedHashMap<>();
    labelNames.forEach(
        (key, byFamily) -> {
          for (String f : byFamily.keySet()) {
            if (read.read(f)) {
              present.computeIfAbsent(key, k -> new TreeSet<>()).add(f);
            }
          }
        });
    ActivityQueries q =
        new ActivityQueries(
            n -> families.computeIfAbsent(n, x -> Optional.ofNullable(familyOf(x))).orElse(null));
    return q.read(backend, timeMs, windowMs, names, present, instances);
  }

  /** A target that is down exposes nothing: its {@code backend} label still names the engine. */
  private Detection fromBackendLabel(String backend) {
    if (backend.equals("nim")) {
      // NVIDIA NIM for LLMs serves vLLM's names unprefixed: its spelling, so reasons name NIM
      EngineCatalog vllm = catalog.engine("vllm");
      for (Spelling s : Spelling.of(vllm)) {
        if (s.prefix().isEmpty()) {
          return new Detection("vllm", "", null, List.of(), List.of(), s, null);
        }
      }
    }
    // vllm-pd, sglang-pd, ...: the engine's key with a suffix; else the catalog's key itself
    String key = backend.endsWith("-pd") ? backend.substring(0, backend.length() - 3) : backend;
    String engine = Detection.UNKNOWN;
    for (EngineCatalog e : catalog.engines()) {
      if (e.engine().equals(key)) {
        engine = key;
      }
    }
    return Detection.of(engine);
  }

  private String familyOf(String sample) {
    for (EngineCatalog e : catalog.engines()) {
      java.util.Optional<String> f = e.familyOfSample(sample);
      if (f.isPresent()) {
        return f.get();
      }
    }
    return sample.endsWith("_created") ? null : sample;
  }

  private String namePattern() {
    Set<String> parts = new java.util.LinkedHashSet<>();
    for (EngineCatalog e : catalog.engines()) {
      for (Spelling s : e.spellings()) {
        if (!s.prefix().isEmpty()) {
          parts.add(java.util.regex.Pattern.quote(s.prefix()) + ".+");
        } else if (!e.engine().equals("dcgm")) {
          // an unprefixed spelling (NVIDIA NIM) owns no namespace: select its exact names
          for (dev.infermon.llm.catalog.MetricEntry m : e.metrics()) {
            if (!m.prefixless()) { // http_* belong to no spelling
              s.sampleNames(m).forEach(n -> parts.add(java.util.regex.Pattern.quote(n)));
            }
          }
        }
      }
    }
    parts.add("DCGM_.+");
    // the routers the router level reads: their targets are in the inventory (never engines)
    for (dev.infermon.llm.catalog.Router r : catalog.nonEngine().routers()) {
      Set<String> names = new java.util.LinkedHashSet<>(r.signature());
      r.sources().forEach(src -> names.add(src.family()));
      for (String n : names) {
        parts.add(java.util.regex.Pattern.quote(n) + "(_bucket|_sum|_count)?");
      }
    }
    return String.join("|", parts).replace("\\Q", "").replace("\\E", "");
  }

  /** A bucket's finite bound, NaN for {@code +Inf} and a malformed bound (they carry none). */
  private static double bound(String le) {
    try {
      double v = Double.parseDouble(le);
      return Double.isInfinite(v) ? Double.NaN : v;
    } catch (NumberFormatException e) {
      return Double.NaN; // "+Inf" is no Java spelling of infinity
    }
  }

  /**
   * The label names of one target's family's series, without {@code __name__} and {@code le} (a
   * bucket's structure) and a summary's {@code quantile} (on the samples that carry the family's
   * name). Series that share their label names (the head keeps one names array per tuple) are read
   * once: the last such series of each kind is remembered.
   */
  private static final class FamilyNames {
    final TreeSet<String> names = new TreeSet<>();
    private Labels lastPlain;
    private Labels lastNamed;

    void add(Labels l, boolean familyNamed) {
      Labels last = familyNamed ? lastNamed : lastPlain;
      if (last != null && l.sharesNamesWith(last)) {
        return;
      }
      if (familyNamed) {
        lastNamed = l;
      } else {
        lastPlain = l;
      }
      for (int i = 0; i < l.size(); i++) {
        String n = l.name(i);
        if (!n.equals("__name__") && !n.equals("le") && !(n.equals("quantile") && familyNamed)) {
          names.add(n);
        }
      }
    }
  }

  /** {@link #key(Labels)}, each {@code job|instance} built once per read. */
  private static final class Keys {
    private final Map<String, Map<String, String>> byJob = new HashMap<>();

    String of(Labels l) {
      String job = l.get("job");
      String instance = l.get("instance");
      if (job == null && instance == null) {
        return key(l);
      }
      return byJob
          .computeIfAbsent(job, j -> new HashMap<>())
          .computeIfAbsent(instance, i -> job + "|" + instance);
    }
  }

  /** A target's key: {@code job|instance}, else {@code namespace/pod}. */
  static String key(Labels l) {
    String job = l.get("job");
    String instance = l.get("instance");
    if (job != null || instance != null) {
      return job + "|" + instance;
    }
    return l.get("namespace") + "/" + l.get("pod");
  }

  private static Map<String, String> targetLabels(Labels l, boolean fromSeries) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String n : TARGET_LABELS) {
      String v = l.get(n);
      if (v != null && !v.isEmpty()) {
        out.put(n, v);
      }
    }
    return out;
  }
}
