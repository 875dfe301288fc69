package dev.infermon.llm.dashboard;

import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A panel spec: what to show (queries over canonical signals), at which level, in which unit; no
 * engine names. Immutable.
 *
 * @param id stable identifier ({@code model.ttft})
 * @param section the row it belongs to
 * @param title the title
 * @param level how series are grouped
 * @param unit the unit, as Grafana names it ({@code s}, {@code percentunit}, {@code reqps}, ...)
 * @param kind timeseries or heatmap
 * @param match extra label matchers that scope the panel ({@code role=decode}); value is a regex
 * @param queries the lines
 * @param description what the panel answers, shown as help
 * @param rank which of a per-pod or per-GPU panel's series are the worst, kept first when a request
 *     asks for its {@code top} ({@link DashboardRequest#top})
 */
public record Panel(
    String id,
    String section,
    String title,
    Level level,
    String unit,
    Kind kind,
    Map<String, String> match,
    List<Query> queries,
    String description,
    Rank rank) {
  /** How the panel draws. */
  public enum Kind {
    TIMESERIES,
    HEATMAP
  }

  /**
   * Which series are the worst: those that peaked highest (latencies, queues, usage), or for a
   * panel where a low value is the bad one ({@code rank: low} in panels.yaml: hit rates,
   * acceptance, efficiency), those that fell lowest.
   */
  public enum Rank {
    HIGH,
    LOW;

    /**
     * The worst of {@code values[from, to)} by this rank, its largest (HIGH) or smallest (LOW), NaN
     * ignored; NaN when the run has no number.
     */
    double worst(double[] values, int from, int to) {
      double best = Double.NaN;
      for (int j = from; j < to; j++) {
        double v = values[j];
        if (!Double.isNaN(v) && (Double.isNaN(best) || (this == HIGH ? v > best : v < best))) {
          best = v;
        }
      }
      return best;
    }
  }

  public Panel {
    if (rank == null) {
      throw new IllegalArgumentException(id + ": rank must not be null");
    }
    if (id == null || !id.matches("[a-z0-9_.]+")) {
      throw new IllegalArgumentException("bad panel id: " + id);
    }
    match = java.util.Collections.unmodifiableMap(new TreeMap<>(match));
    queries = List.copyOf(queries);
    if (queries.isEmpty()) {
      throw new IllegalArgumentException(id + ": a panel needs at least one query");
    }
  }

  /**
   * Whether a request's {@code top} cuts this panel's series ({@link DashboardRequest#top}): lines
   * per pod or per GPU; never a model-level, fleet-level or heatmap panel.
   */
  public boolean ranked() {
    return (level == Level.POD || level == Level.GPU) && kind == Kind.TIMESERIES;
  }

  /** Every signal the panel reads. */
  public List<Signal> signals() {
    List<Signal> out = new ArrayList<>();
    for (Query q : queries) {
      for (Signal s : q.measure().signals()) {
        if (!out.contains(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }
}
