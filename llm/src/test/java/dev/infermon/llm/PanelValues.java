package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import java.util.HashMap;
import java.util.Map;

/**
 * A measure compiled for what a backend stores and evaluated at one time, keyed by its level's last
 * grouping label (the pod, the model): what a panel shows now, for tests that compare it with the
 * simulator's truth or a capture's numbers. Each key must come once.
 */
final class PanelValues {
  private static final Catalog CATALOG = Catalog.builtIn();

  private PanelValues() {}

  static Map<String, Double> at(
      QueryBackend backend, long at, Measure m, Level level, Filters filters) {
    DashboardService service = new DashboardService(QueryStack.of(backend), CATALOG);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            filters, Map.of(), 0.95, "5m", Presence.of(service.inventory(at), CATALOG));
    String q = new PromqlCompiler(CATALOG).compile(m, level, o).orElseThrow();
    Vector v = (Vector) backend.instantQuery(q, at).value();
    String key = level.groupBy().get(level.groupBy().size() - 1);
    Map<String, Double> out = new HashMap<>();
    for (Sample s : v.samples()) {
      assertThat(out.put(s.labels().get(key), s.value())).as(key + " once: " + q).isNull();
    }
    return out;
  }

  /** Query {@code query} of panel {@code id}. */
  static Map<String, Double> panel(
      QueryBackend backend, long at, String id, int query, Filters filters) {
    Panel p = Dashboards.panel(id);
    return at(backend, at, p.queries().get(query).measure(), p.level(), filters);
  }

  /**
   * The series {@code key} of {@code m} at {@code level} at {@code now}; fails when it has none.
   */
  static double required(QueryBackend backend, long now, Measure m, Level level, String key) {
    Double v = at(backend, now, m, level, Filters.NONE).get(key);
    if (v == null) {
      throw new AssertionError("no series for " + key + " from " + m + " at " + level);
    }
    return v;
  }

  /**
   * What {@code pod}'s counters in {@code truth} (per scrape time, per pod) grew by in the window a
   * 5 m rate at {@code now} sees: (now-5m, now], its first scrape at -285 s.
   */
  static double[] delta(Map<Long, Map<String, double[]>> truth, long now, String pod) {
    double[] end = truth.get(now).get(pod);
    double[] start = truth.get(now - 285_000).get(pod);
    double[] d = new double[end.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = end[i] - start[i];
    }
    return d;
  }
}
