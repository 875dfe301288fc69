package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.StoredInventory;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders the dashboard: reads the inventory, compiles each panel for the families present, runs
 * the queries through the {@link QueryBackend} (embedded or remote) and explains every empty panel.
 * Thread-safe when the backend is; each call is independent.
 */
public final class DashboardService {
  /** How far back the inventory looks for a target's series. */
  public static final long INVENTORY_WINDOW_MS = 10 * 60_000;

  private final QueryBackend backend;
  private final Catalog catalog;
  private final PromqlCompiler compiler;
  private final ReasonFinder reasons;
  private final StoredInventory inventory;

  public DashboardService(QueryBackend backend, Catalog catalog) {
    if (backend == null || catalog == null) {
      throw new IllegalArgumentException("backend and catalog are required");
    }
    this.backend = backend;
    this.catalog = catalog;
    this.compiler = new PromqlCompiler(catalog);
    this.reasons = new ReasonFinder(catalog);
    this.inventory = new StoredInventory(catalog);
  }

  /** The catalog in use. */
  public Catalog catalog() {
    return catalog;
  }

  /** The fleet as stored at {@code timeMs}. */
  public Inventory inventory(long timeMs) {
    return inventory.read(backend, timeMs, INVENTORY_WINDOW_MS);
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
    Presence presence = Presence.of(inv.families());
    List<PanelResult> out = new ArrayList<>();
    for (Panel p : panels) {
      out.add(render(p, r, inv, presence));
    }
    return out;
  }

  private PanelResult render(Panel p, DashboardRequest r, Inventory inv, Presence presence) {
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(r.filters(), p.match(), r.quantile(), r.window(), presence);
    List<PanelResult.QueryData> queries = new ArrayList<>();
    List<EmptyReason> errors = new ArrayList<>();
    boolean any = false;
    for (Query q : p.queries()) {
      Optional<String> promql = compiler.compile(q.measure(), p.level(), o);
      List<PanelResult.SeriesData> series = new ArrayList<>();
      List<String> warnings = new ArrayList<>();
      if (promql.isPresent()) {
        try {
          QueryResult res = backend.rangeQuery(promql.get(), r.startMs(), r.endMs(), r.stepMs());
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
    for (EmptyReason e : reasons.explain(p, inv, r.filters())) {
      // with data on the panel, "no traffic" of one engine is noise; missing signals are not
      if (!any
          || (e.kind() != EmptyReason.Kind.NO_TRAFFIC
              && e.kind() != EmptyReason.Kind.NOT_ATTRIBUTED)) {
        why.add(e);
      }
    }
    PanelResult.Status status =
        !any
            ? PanelResult.Status.EMPTY
            : why.isEmpty() ? PanelResult.Status.OK : PanelResult.Status.PARTIAL;
    if (!any && why.isEmpty()) {
      why.add(
          new EmptyReason(
              EmptyReason.Kind.NO_TRAFFIC,
              "",
              "the families are present but the range holds no samples or no change yet",
              null,
              null));
    }
    return new PanelResult(p, queries, status, why);
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
