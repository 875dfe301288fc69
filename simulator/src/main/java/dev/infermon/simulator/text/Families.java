package dev.infermon.simulator.text;

import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.List;

/**
 * Where a Python server's families go as its code registers them: straight onto a page ({@link
 * PythonFamilies}) or into one process's prometheus_client multiprocess files ({@link
 * MultiprocDir}).
 */
public interface Families {
  /** A gauge family. */
  void gauge(String name, String help, List<Child> children);

  /** A counter family; {@code base} has no {@code _total}. */
  void counter(String base, String help, List<Child> children);

  /** A summary family without quantiles: per child its count and its sum. */
  void summary(String base, String help, List<Child> counts, List<Child> sums);

  /** A histogram family. */
  void histogram(String base, String help, List<HistogramChild> children);
}
