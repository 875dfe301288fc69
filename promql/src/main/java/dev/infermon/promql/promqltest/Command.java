package dev.infermon.promql.promqltest;

import java.util.List;

/** One command of a script. */
public sealed interface Command permits Command.Load, Command.Clear, EvalCommand {
  /** The command's line in the script (1-based). */
  int line();

  /**
   * {@code load <step>}: series whose i-th value sits at {@code i * step}.
   *
   * @param withNhcb {@code load_with_nhcb}: the classic buckets are loaded, the native-histogram
   *     copies Prometheus would add are not (native histograms are out of scope)
   */
  record Load(int line, long stepMs, List<SeriesDescription> series, boolean withNhcb)
      implements Command {
    public Load {
      series = List.copyOf(series);
    }
  }

  /** {@code clear}: start over with an empty storage. */
  record Clear(int line) implements Command {}
}
