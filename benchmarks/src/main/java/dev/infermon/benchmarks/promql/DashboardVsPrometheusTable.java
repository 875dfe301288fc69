package dev.infermon.benchmarks.promql;

import dev.infermon.benchmarks.dashboard.DashboardQueryLog;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** {@link DashboardVsPrometheus}'s results as Markdown: one row per query, then a summary. */
final class DashboardVsPrometheusTable {
  /** The goal of issue #25: every dashboard query at most half of Prometheus's CPU time. */
  static final double GOAL = 0.5;

  private DashboardVsPrometheusTable() {}

  static String render(
      List<DashboardVsPrometheus.Row> rows,
      List<DashboardQueryLog.Asked> asked,
      DashboardQueryLog.History h,
      int warmup,
      int rounds) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "Every query of one dashboard load, %d pods x %d h at %d s (%,d samples); %d warm-up"
                + " + %d timed rounds per side, alternating; medians (min) in ms. infermon: thread"
                + " CPU of parse + evaluation on the calling thread (no HTTP, no JSON), and its"
                + " evaluation's wall time. Prometheus: process CPU per round (all threads, parse,"
                + " HTTP and JSON included; /proc tick resolution, averaged over the rounds) and"
                + " evalTotalTime (stats=all). CPU ratio: infermon CPU / Prometheus CPU; eval ratio:"
                + " infermon evaluation wall / evalTotalTime.%n%n",
            h.pods(),
            h.hours(),
            h.scrapeSeconds(),
            h.samples(),
            warmup,
            rounds));
    sb.append(
        "| # | kind | steps | infermon CPU | infermon eval wall | Prometheus CPU |"
            + " Prometheus evalTotalTime | CPU ratio | eval ratio | results | query |\n");
    sb.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
    for (int i = 0; i < rows.size(); i++) {
      sb.append(line(i + 1, rows.get(i)));
    }
    sb.append('\n').append(summary(rows));
    return sb.toString();
  }

  private static String line(int n, DashboardVsPrometheus.Row r) {
    DashboardQueryLog.Asked a = r.asked();
    String kind = a.kind().name().toLowerCase(Locale.ROOT);
    long steps =
        a.kind() == DashboardQueryLog.Kind.RANGE ? (a.endMs() - a.startMs()) / a.stepMs() + 1 : 1;
    String results = r.finding() == null ? "same" : "DIFFER: " + r.finding().replace('|', '/');
    if (r.rounds() == null) {
      return String.format(
          Locale.ROOT,
          "| %d | %s | %d | | | | | | | %s | `%s` |%n",
          n,
          kind,
          steps,
          results,
          a.query());
    }
    SideBySide.Rounds t = r.rounds();
    return String.format(
        Locale.ROOT,
        "| %d | %s | %d | %s | %s | %.2f | %s | %s | %s | %s | `%s` |%n",
        n,
        kind,
        steps,
        Stats.ms(t.infermonCpuWithParse()),
        Stats.ms(t.infermon()),
        t.prometheusCpu() / 1e6,
        a.kind() == DashboardQueryLog.Kind.SERIES ? "(none)" : Stats.ms(t.eval()),
        r.cpuMeasured() ? String.format(Locale.ROOT, "%.2f", r.cpuRatio()) : "(< 2 ticks)",
        Double.isNaN(r.evalRatio()) ? "" : String.format(Locale.ROOT, "%.2f", r.evalRatio()),
        results.length() > 160 ? results.substring(0, 160) + "…" : results,
        a.query());
  }

  private static String summary(List<DashboardVsPrometheus.Row> rows) {
    List<DashboardVsPrometheus.Row> timed = rows.stream().filter(r -> r.rounds() != null).toList();
    long cpuMeasured = timed.stream().filter(DashboardVsPrometheus.Row::cpuMeasured).count();
    long cpuMet = timed.stream().filter(r -> r.cpuMeasured() && r.cpuRatio() <= GOAL).count();
    List<DashboardVsPrometheus.Row> evaluated =
        timed.stream().filter(r -> !Double.isNaN(r.evalRatio())).toList();
    long evalMet = evaluated.stream().filter(r -> r.evalRatio() <= GOAL).count();
    long differ = rows.stream().filter(r -> r.finding() != null).count();
    long early =
        rows.stream()
            .filter(r -> r.finding() != null && r.finding().startsWith(SideBySide.ONLY_BEFORE))
            .count();
    double infCpu =
        timed.stream().mapToDouble(r -> Stats.median(r.rounds().infermonCpuWithParse())).sum();
    double promCpu = timed.stream().mapToDouble(r -> r.rounds().prometheusCpu()).sum();
    double promEval = evaluated.stream().mapToDouble(r -> Stats.median(r.rounds().eval())).sum();
    double infEval = evaluated.stream().mapToDouble(r -> Stats.median(r.rounds().infermon())).sum();
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "Summary: %d calls (series lookups included), %d timed; CPU ratio <= %.1f: %d of %d (%d more used under two"
                + " /proc ticks of Prometheus CPU over all rounds: not measured); eval ratio <= %.1f:"
                + " %d of %d (series lookups have none); results differ or failed: %d (%d of them only at points whose windows reach before the history's first sample). Whole load (sums over the queries): infermon"
                + " CPU %.1f ms, Prometheus CPU %.1f ms (ratio %.2f); infermon eval wall %.1f ms,"
                + " Prometheus evalTotalTime %.1f ms (ratio %.2f).%n%nWorst CPU ratios:%n",
            rows.size(),
            timed.size(),
            GOAL,
            cpuMet,
            cpuMeasured,
            timed.size() - cpuMeasured,
            GOAL,
            evalMet,
            evaluated.size(),
            differ,
            early,
            infCpu / 1e6,
            promCpu / 1e6,
            infCpu / Math.max(1, promCpu),
            infEval / 1e6,
            promEval / 1e6,
            infEval / Math.max(1, promEval)));
    timed.stream()
        .filter(DashboardVsPrometheus.Row::cpuMeasured)
        .sorted(Comparator.comparingDouble(DashboardVsPrometheus.Row::cpuRatio).reversed())
        .limit(10)
        .forEach(
            r ->
                sb.append(
                    String.format(
                        Locale.ROOT,
                        "- %.2f (eval %.2f, infermon CPU %.1f ms): `%s`%n",
                        r.cpuRatio(),
                        r.evalRatio(),
                        Stats.median(r.rounds().infermonCpuWithParse()) / 1e6,
                        r.asked().query())));
    return sb.toString();
  }
}
