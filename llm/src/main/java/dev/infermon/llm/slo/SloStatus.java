package dev.infermon.llm.slo;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SLO panel's data, read through a {@link QueryBackend} from the series the generated rules
 * record (so it works against a remote Prometheus that loads the same rules): each SLO's objective,
 * its attainment over the budget period ({@code 1 - avg_over_time(slo:error_ratio:rate5m[period])},
 * every 5-minute window weighted alike, as Sloth and Pyrra compute it), the error budget left, and
 * the current burn rate over each alert window. Reached through {@link SloService}. Stateless;
 * thread-safe when the backend is.
 */
public final class SloStatus {
  private SloStatus() {}

  /**
   * One SLO's state at a time.
   *
   * @param slo the SLO's name
   * @param model the model
   * @param sli the SLI
   * @param objective the objective (0.95)
   * @param window the budget period ({@code 30d})
   * @param thresholdSeconds the latency threshold, NaN for the success SLI
   * @param attainment the share of good requests over the period, NaN without data
   * @param budgetRemaining the share of the error budget left (1 untouched, 0 spent, negative
   *     overspent), NaN without data
   * @param burnRates the burn rate by window ({@code 1h} → 2.5 means 2.5 times too fast)
   */
  public record State(
      String slo,
      String model,
      String sli,
      double objective,
      String window,
      double thresholdSeconds,
      double attainment,
      double budgetRemaining,
      Map<String, Double> burnRates) {
    public State {
      burnRates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(burnRates));
    }
  }

  /** The state of every SLO whose rules are loaded, at {@code timeMs}. */
  static List<State> read(QueryBackend backend, long timeMs, List<BurnWindow> windows) {
    List<State> out = new ArrayList<>();
    QueryResult objectives = backend.instantQuery(SloRules.OBJECTIVE, timeMs);
    if (!(objectives.value() instanceof Vector)) {
      return out;
    }
    for (Sample s : ((Vector) objectives.value()).samples()) {
      Labels l = s.labels();
      String name = l.get("slo");
      if (name == null) {
        continue;
      }
      double objective = s.value();
      String period = l.get("window") == null ? "30d" : l.get("window");
      String sel = "{slo=\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
      double errors =
          scalar(
              backend,
              "avg_over_time("
                  + SloRules.errorRatio(Duration.ofMinutes(5))
                  + sel
                  + "["
                  + period
                  + "])",
              timeMs);
      double attainment = 1 - errors;
      double budget = 1 - objective;
      Map<String, Double> burn = new LinkedHashMap<>();
      List<Duration> seen = new ArrayList<>();
      for (BurnWindow w : windows) {
        for (Duration d : List.of(w.shortWindow(), w.longWindow())) {
          if (!seen.contains(d)) {
            seen.add(d);
            burn.put(
                SloRules.duration(d),
                scalar(backend, SloRules.errorRatio(d) + sel, timeMs) / budget);
          }
        }
      }
      String t = l.get("threshold_seconds");
      out.add(
          new State(
              name,
              l.get("model_name") == null ? "" : l.get("model_name"),
              l.get("sli") == null ? "" : l.get("sli"),
              objective,
              period,
              t == null ? Double.NaN : Double.parseDouble(t),
              attainment,
              Double.isNaN(errors) ? Double.NaN : 1 - errors / budget,
              burn));
    }
    return out;
  }

  private static double scalar(QueryBackend backend, String query, long timeMs) {
    QueryResult r = backend.instantQuery(query, timeMs);
    if (r.value() instanceof Vector && !((Vector) r.value()).samples().isEmpty()) {
      return ((Vector) r.value()).samples().get(0).value();
    }
    return Double.NaN;
  }
}
