package dev.infermon.llm.dashboard;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Renders the dashboard: reads the inventory, compiles each panel for the families present, runs
 * the queries through the {@link QueryBackend} (embedded or remote) and explains every empty panel.
 *
 * <p>Speed (docs/rationale.md, "UI and dashboard speed"): the inventory is read once per requested
 * time and shared for {@link InventoryService#MAX_AGE_MS} (the process's one {@link
 * InventoryService}, over {@link #INVENTORY_WINDOW_MS}); the distinct queries of one request are
 * asked once each (panels often share one, e.g. the same rate), all at once through {@link
 * QueryBackend#rangeQueryAsync}. Where they run, whether an identical query of another request is
 * joined and whether final steps come from a results cache is the backend's stack ({@link
 * dev.infermon.promql.backend.QueryStack}, built once by the server); over a bare backend they run
 * one after another on the caller's thread.
 *
 * <p>Threading: thread-safe when the backend is; holds no threads and needs no closing.
 */
public final class DashboardService {
  /** How far back the inventory looks for a target's series. */
  public static final long INVENTORY_WINDOW_MS = 10 * 60_000;

  private final QueryBackend backend;
  private final Catalog catalog;
  private final PromqlCompiler compiler;
  private final ReasonFinder reasons;
  private final InventoryService inventories;
  private final Supplier<LlmConfig.Cost> cost;

  /** With its own inventory service over {@code backend}. */
  public DashboardService(QueryBackend backend, Catalog catalog) {
    this(backend, inventoryOf(backend, catalog));
  }

  /**
   * Over the process's shared inventory service, which must read the same {@code backend}; the
   * catalog is the inventory's.
   */
  public DashboardService(QueryBackend backend, InventoryService inventories) {
    this(backend, inventories, () -> LlmConfig.Cost.NONE);
  }

  /**
   * As {@link #DashboardService(QueryBackend, InventoryService)}, with the GPU-hour prices {@code
   * cost} gives at each render ({@code llm.cost}, which a reload may change) for the cost panels.
   */
  public DashboardService(
      QueryBackend backend, InventoryService inventories, Supplier<LlmConfig.Cost> cost) {
    if (backend == null || inventories == null || cost == null) {
      throw new IllegalArgumentException("backend, inventories and cost are required");
    }
    this.cost = cost;
    this.backend = backend;
    this.catalog = inventories.catalog();
    this.compiler = new PromqlCompiler(catalog);
    this.reasons = new ReasonFinder(catalog);
    this.inventories = inventories;
  }

  /** The catalog in use. */
  public Catalog catalog() {
    return catalog;
  }

  /**
   * The fleet as stored at {@code timeMs} over {@link #INVENTORY_WINDOW_MS}, read at most {@link
   * InventoryService#MAX_AGE_MS} ago (shared with other requests for the same time).
   */
  public Inventory inventory(long timeMs) {
    return inventories.inventory(timeMs, INVENTORY_WINDOW_MS);
  }

  private static InventoryService inventoryOf(QueryBackend backend, Catalog catalog) {
    if (backend == null || catalog == null) {
      throw new IllegalArgumentException("backend and catalog are required");
    }
    return new InventoryService(catalog, backend);
  }

  /**
   * The LoRA adapters any vLLM in scope listed (running or waiting) in {@code [startMs, endMs]}, by
   * model and name: what the model filter offers beside the models. An adapter that went idle in
   * the window is among them (its past is stored), and so is one that ran only between two steps.
   */
  public List<LoraAdapter> adapters(Filters filters, long startMs, long endMs) {
    DashboardRequest r = DashboardRequest.of(filters.without(Filters.ADAPTER), startMs, endMs);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            r.filters(),
            Map.of(),
            r.quantile(),
            r.window(),
            Presence.of(inventory(endMs), catalog),
            PromqlCompiler.duration(r.stepMs()));
    Set<String> seen = new HashSet<>();
    List<LoraAdapter> out = new ArrayList<>();
    Optional<String> q =
        compiler.compile(new Measure.Lora(Measure.Lora.View.LISTED), Level.MODEL, o);
    if (q.isEmpty()) {
      return List.of(); // no lora_requests_info in scope
    }
    QueryResult res = await(backend.rangeQueryAsync(q.get(), startMs, endMs, r.stepMs()));
    for (TimeSeries ts : ((Matrix) res.value()).series()) {
      String model = ts.labels().get("model_name");
      String adapter = ts.labels().get(Filters.ADAPTER);
      if (!adapter.isEmpty() && seen.add(model + "\u0000" + adapter)) {
        out.add(new LoraAdapter(model, adapter));
      }
    }
    out.sort(Comparator.comparing(LoraAdapter::model).thenComparing(LoraAdapter::adapter));
    return List.copyOf(out);
  }

  /**
   * Renders the requested panels.
   *
   * @throws IllegalArgumentException for an unknown panel id
   */
  public List<PanelResult> render(DashboardRequest r) {
    Inventory inv = inventory(r.endMs());
    List<Panel> panels = new ArrayList<>();
    if (r.panels().isEmpty()) {
      panels.addAll(Dashboards.standard());
    } else {
      for (String id : r.panels()) {
        panels.add(Dashboards.panel(id));
      }
    }
    Presence presence = Presence.of(inv, catalog);
    LlmConfig.Cost prices = cost.get();
    // compile everything first, then ask each distinct query once, all of them at once
    List<List<Optional<String>>> compiled = new ArrayList<>();
    Map<String, CompletableFuture<QueryResult>> runs = new LinkedHashMap<>();
    for (Panel p : panels) {
      PromqlCompiler.Options o =
          new PromqlCompiler.Options(
              r.filters(),
              p.match(),
              r.quantile(),
              r.window(),
              presence,
              PromqlCompiler.duration(r.stepMs()));
      List<Optional<String>> qs = new ArrayList<>();
      for (Query q : p.queries()) {
        Optional<String> promql =
            q.measure() instanceof Measure.CostPerMillionTokens
                ? compiler.compileCostPerMillionTokens(p.level().groupBy(), o, prices)
                : compiler.compile(q.measure(), p.level(), o);
        promql.ifPresent(
            text ->
                runs.computeIfAbsent(
                    text, t -> backend.rangeQueryAsync(t, r.startMs(), r.endMs(), r.stepMs())));
        qs.add(promql);
      }
      compiled.add(qs);
    }
    // per distinct panel match (the prefill/decode view's pairs), the routers in front of none
    Map<Map<String, String>, Set<String>> elsewhere = new HashMap<>();
    List<PanelResult> out = new ArrayList<>();
    for (int i = 0; i < panels.size(); i++) {
      Panel p = panels.get(i);
      Set<String> notFronting =
          routerOnly(p)
              ? elsewhere.computeIfAbsent(
                  p.match(), m -> RouterScope.notFronting(compiler, backend, r, m, presence))
              : Set.of();
      out.add(render(p, compiled.get(i), runs, r, inv, prices, notFronting));
    }
    return out;
  }

  /**
   * The UI's steps for its ranges within the rollups' reach (web's {@code state.js} {@code
   * stepFor}: 15 minutes and 1 hour at 15 s, 6 hours at 90 s).
   */
  static final List<Long> UI_STEPS_MS = List.of(15_000L, 90_000L);

  /**
   * The range queries of the standard dashboard's default view (every panel, no filters, {@link
   * DashboardRequest#of}'s quantile and window) and of the filters' adapter listing, for the fleet
   * present at {@code timeMs}: the texts a server keeps stored answers of ({@code
   * llm.dashboard.rollups}), on a grid of {@code intervalMs}. A text that names its step (a
   * per-step increase, {@code x - x offset <step>}) is compiled at each of the UI's steps that is a
   * multiple of the interval ({@link #UI_STEPS_MS}), since only a query at that step asks it; its
   * value at a time still depends on that time alone. The cost panels are left out (their prices
   * are {@code llm.cost}'s, which a reload changes).
   */
  public java.util.SortedSet<String> defaultQueries(long timeMs, long intervalMs) {
    Presence presence = Presence.of(inventory(timeMs), catalog);
    DashboardRequest r = DashboardRequest.of(Filters.NONE, timeMs - 6 * 3_600_000L, timeMs);
    List<String> steps = new ArrayList<>();
    for (long step : UI_STEPS_MS) {
      if (step % intervalMs == 0) {
        steps.add(PromqlCompiler.duration(step));
      }
    }
    steps.add(PromqlCompiler.duration(r.stepMs())); // the adapters' listing asks at this one
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (String step : steps) {
      for (Panel p : Dashboards.standard()) {
        PromqlCompiler.Options o =
            new PromqlCompiler.Options(
                Filters.NONE, p.match(), r.quantile(), r.window(), presence, step);
        for (Query q : p.queries()) {
          if (!(q.measure() instanceof Measure.CostPerMillionTokens)) {
            compiler.compile(q.measure(), p.level(), o).ifPresent(out::add);
          }
        }
      }
      PromqlCompiler.Options o =
          new PromqlCompiler.Options(
              Filters.NONE, Map.of(), r.quantile(), r.window(), presence, step);
      compiler
          .compile(new Measure.Lora(Measure.Lora.View.LISTED), Level.MODEL, o)
          .ifPresent(out::add);
    }
    return java.util.Collections.unmodifiableSortedSet(out);
  }

  /** The answer of a query asked asynchronously; its exception as the backend threw it. */
  private static QueryResult await(CompletableFuture<QueryResult> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a panel's query", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      if (e.getCause() instanceof Error) {
        throw (Error) e.getCause();
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private PanelResult render(
      Panel p,
      List<Optional<String>> compiled,
      Map<String, CompletableFuture<QueryResult>> runs,
      DashboardRequest r,
      Inventory inv,
      LlmConfig.Cost prices,
      Set<String> routersElsewhere) {
    List<PanelResult.QueryData> queries = new ArrayList<>();
    List<EmptyReason> errors = new ArrayList<>();
    if (!prices.priced()
        && p.queries().stream()
            .anyMatch(q -> q.measure() instanceof Measure.CostPerMillionTokens)) {
      errors.add(
          new EmptyReason(
              EmptyReason.Kind.NOT_CONFIGURED,
              "",
              "no GPU-hour price is configured: set llm.cost's gpu_hour_prices or"
                  + " default_gpu_hour_price (docs/configuration.md#llmcost)",
              null,
              null));
    }
    boolean any = false;
    for (int qi = 0; qi < p.queries().size(); qi++) {
      Query q = p.queries().get(qi);
      Optional<String> promql = compiled.get(qi);
      List<PanelResult.SeriesData> series = new ArrayList<>();
      List<String> warnings = new ArrayList<>();
      if (promql.isPresent()) {
        try {
          QueryResult res = await(runs.get(promql.get()));
          warnings.addAll(res.annotations().warnings());
          if (res.value() instanceof Matrix) {
            for (TimeSeries ts : ((Matrix) res.value()).series()) {
              PanelResult.SeriesData d = series(ts);
              series.add(d);
              any |= d.hasValues();
            }
          }
        } catch (QueryException | IllegalArgumentException e) {
          errors.add(new EmptyReason(EmptyReason.Kind.QUERY_ERROR, "", e.getMessage(), null, null));
        }
      }
      queries.add(new PanelResult.QueryData(q.legend(), promql.orElse(null), series, warnings));
    }
    List<EmptyReason> why = new ArrayList<>(errors);
    boolean elsewhere = false;
    for (EmptyReason e : reasons.explain(p, inv, r.filters())) {
      if (routerOnly(p) && routersElsewhere.contains(e.engine())) {
        elsewhere = true;
        continue; // a router in front of other pods: what it lacks says nothing of this view
      }
      // with data on the panel, "no traffic" of an engine that shows data is noise, and a family
      // the release no longer has does not apply; missing signals are not, nor is the silence of
      // an engine none of whose series is on the panel (a mixed fleet's other engine)
      // without prices no query ran: that GPUs are not attributed, or that the query selects none
      // of a family's series, is a guess from nothing
      if (!prices.priced()
          && (e.kind() == EmptyReason.Kind.NOT_ATTRIBUTED || e.kind() == EmptyReason.Kind.NO_MATCH)
          && p.queries().stream()
              .allMatch(q -> q.measure() instanceof Measure.CostPerMillionTokens)) {
        continue;
      }
      boolean noise =
          e.kind() == EmptyReason.Kind.REMOVED
              || e.kind() == EmptyReason.Kind.NOT_ATTRIBUTED
              || ((e.kind() == EmptyReason.Kind.NO_TRAFFIC || e.kind() == EmptyReason.Kind.NO_MATCH)
                  && shows(host(e.engine()), queries, inv));
      if (!any || !noise) {
        why.add(e);
      }
    }
    PanelResult.Status status =
        !any
            ? PanelResult.Status.EMPTY
            : why.isEmpty() ? PanelResult.Status.OK : PanelResult.Status.PARTIAL;
    if (!any && why.isEmpty() && (elsewhere || routesOtherPods(p, r, inv))) {
      why.add(
          new EmptyReason(
              EmptyReason.Kind.NO_ROUTER,
              "",
              "no router in front of the pods in scope: the routers scraped route only to pods the"
                  + " filters or the panel's view leave out",
              null,
              null));
    }
    if (!any && why.isEmpty()) {
      why.add(
          new EmptyReason(
              EmptyReason.Kind.NO_TRAFFIC,
              "",
              "the families are present but the range holds no samples or no change yet",
              null,
              null));
    }
    return new PanelResult(p, top(p, queries, r), status, why);
  }

  /**
   * The queries as the response carries them: a per-pod or per-GPU panel's cut to the request's top
   * worst series each, with how many there were; after the reasons, which read every series.
   */
  private static List<PanelResult.QueryData> top(
      Panel p, List<PanelResult.QueryData> queries, DashboardRequest r) {
    if (r.top().isEmpty() || !p.ranked()) {
      return queries;
    }
    List<PanelResult.QueryData> out = new ArrayList<>();
    for (PanelResult.QueryData q : queries) {
      out.add(
          new PanelResult.QueryData(
              q.legend(),
              q.promql(),
              TopSeries.cut(q.series(), r.top().getAsInt(), p.rank()),
              q.warnings(),
              q.series().size()));
    }
    return out;
  }

  /** Whether every query of the panel reads a router. */
  private static boolean routerOnly(Panel p) {
    return p.queries().stream().allMatch(q -> q.measure() instanceof Measure.Router);
  }

  /**
   * Whether a router panel that the filters leave empty has data without them: the routers there
   * route to other pods (llm-d's pool of vLLM pods, with the filters on TGI's), so none is in front
   * of the pods in scope, which is not a lack of traffic.
   */
  private boolean routesOtherPods(Panel p, DashboardRequest r, Inventory inv) {
    if (r.filters().values().isEmpty()
        || p.queries().stream().anyMatch(q -> !(q.measure() instanceof Measure.Router))) {
      return false;
    }
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            p.match(),
            r.quantile(),
            r.window(),
            Presence.of(inv, catalog),
            PromqlCompiler.duration(r.stepMs()));
    for (Query q : p.queries()) {
      Optional<String> all = compiler.compile(q.measure(), p.level(), o);
      if (all.isEmpty()) {
        continue;
      }
      try {
        QueryResult res =
            await(backend.rangeQueryAsync(all.get(), r.startMs(), r.endMs(), r.stepMs()));
        if (res.value() instanceof Matrix
            && ((Matrix) res.value()).series().stream().anyMatch(ts -> series(ts).hasValues())) {
          return true;
        }
      } catch (QueryException | IllegalArgumentException e) {
        return false; // the filtered query's own error, if any, is already a reason
      }
    }
    return false;
  }

  /**
   * Whether some series with values on the panel comes from {@code engine}'s targets: by its {@code
   * pod}, else by its {@code model_name} (a model-level series names no engine, but only the
   * engines serving that model could have written it). A series with neither (a fleet total) counts
   * for every engine.
   */
  /**
   * The engine whose targets serve {@code engine}'s series: its host for one that runs inside
   * another (LMCache's families are on the vLLM pod's page), else itself.
   */
  private String host(String engine) {
    for (EngineCatalog e : catalog.engines()) {
      if (e.engine().equals(engine) && !e.runsIn().isEmpty()) {
        return e.runsIn();
      }
    }
    return engine;
  }

  private static boolean shows(String engine, List<PanelResult.QueryData> queries, Inventory inv) {
    Inventory mine = inv.filter(t -> t.engine().equals(engine));
    for (PanelResult.QueryData q : queries) {
      for (PanelResult.SeriesData s : q.series()) {
        if (!s.hasValues()) {
          continue;
        }
        String pod = s.labels().get("pod");
        String model = s.labels().get("model_name");
        if (pod != null) {
          if (mine.targets().stream().anyMatch(t -> t.label("pod").equals(pod))) {
            return true;
          }
        } else if (model == null
            || mine.targets().stream().anyMatch(t -> t.models().contains(model))) {
          return true;
        }
      }
    }
    return engine.isEmpty();
  }

  private static PanelResult.SeriesData series(TimeSeries ts) {
    Map<String, String> labels = new LinkedHashMap<>();
    Labels l = ts.labels();
    for (int i = 0; i < l.size(); i++) {
      labels.put(l.name(i), l.value(i));
    }
    long[] t = new long[ts.size()];
    double[] v = new double[ts.size()];
    for (int i = 0; i < ts.size(); i++) {
      t[i] = ts.timestampAt(i);
      v[i] = ts.valueAt(i);
    }
    return new PanelResult.SeriesData(labels, t, v);
  }
}
