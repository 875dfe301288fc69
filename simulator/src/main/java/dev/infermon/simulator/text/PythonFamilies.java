package dev.infermon.simulator.text;

import java.util.List;

/**
 * Lays out families the way Python's prometheus_client does. Single-process mode (vLLM): a counter
 * is {@code name_total} followed by a {@code name_created} gauge family with the same HELP, a
 * histogram writes each child's buckets, {@code _count} and {@code _sum}, then a {@code _created}
 * family (printed only when it has samples). Multiprocess mode (SGLang): no {@code _created}, and a
 * histogram writes child by child its {@code _sum}, buckets and {@code _count}: {@code
 * MultiProcessCollector._accumulate_metrics} keeps one sample dict per child, the {@code _sum} put
 * in while the files are read, buckets and {@code _count} after
 * (prometheus_client/multiprocess.py @ d0b497ff), and the page is printed dict by dict. Families
 * without children print only in single-process mode (as HELP/TYPE lines with no samples).
 */
public final class PythonFamilies implements Families {
  private final PromText out;
  private final boolean multiprocess;
  private final boolean createdSeries;

  /**
   * Writes into {@code out}.
   *
   * @param multiprocess SGLang's layout (which never has {@code _created} series)
   * @param createdSeries whether single-process counters and histograms get {@code _created}
   *     families (vLLM V0 called {@code disable_created_metrics()})
   */
  public PythonFamilies(PromText out, boolean multiprocess, boolean createdSeries) {
    this.out = out;
    this.multiprocess = multiprocess;
    this.createdSeries = createdSeries && !multiprocess;
  }

  /**
   * One child of a family: its labels (alternating names and values, any order), value and creation
   * time (epoch seconds).
   */
  public record Child(String[] labels, double value, double created) {}

  /**
   * One child of a histogram family.
   *
   * @param labels alternating names and values
   * @param histogram the observations
   * @param created creation time, epoch seconds
   */
  public record HistogramChild(String[] labels, Histogram histogram, double created) {}

  /** A gauge family. */
  @Override
  public void gauge(String name, String help, List<Child> children) {
    if (multiprocess && children.isEmpty()) {
      return;
    }
    out.family(name, help, "gauge");
    for (Child c : children) {
      out.sortedSample(name, c.labels(), c.value());
    }
  }

  /** A counter family; {@code base} has no {@code _total}. */
  @Override
  public void counter(String base, String help, List<Child> children) {
    if (multiprocess && children.isEmpty()) {
      return;
    }
    String total = base + "_total";
    out.family(total, help, "counter");
    for (Child c : children) {
      out.sortedSample(total, c.labels(), c.value());
    }
    created(base, help, children);
  }

  /**
   * A summary family without quantiles (the instrumentator's sizes): {@code _count}, {@code _sum}.
   */
  @Override
  public void summary(String base, String help, List<Child> counts, List<Child> sums) {
    out.family(base, help, "summary");
    for (int i = 0; i < counts.size(); i++) {
      out.sortedSample(base + "_count", counts.get(i).labels(), counts.get(i).value());
      out.sortedSample(base + "_sum", sums.get(i).labels(), sums.get(i).value());
    }
    created(base, help, counts);
  }

  /** A histogram family. */
  @Override
  public void histogram(String base, String help, List<HistogramChild> children) {
    if (multiprocess && children.isEmpty()) {
      return;
    }
    out.family(base, help, "histogram");
    String bucket = base + "_bucket";
    for (HistogramChild c : children) {
      Histogram h = c.histogram();
      if (multiprocess) {
        // one sample dict per child: its _sum (read from the files), then its buckets and _count
        out.sortedSample(base + "_sum", c.labels(), h.sum());
      }
      long[] cumulative = new long[h.size() + 1];
      h.cumulativeInto(cumulative);
      String[] around = out.sortedAroundLe(c.labels());
      for (int i = 0; i <= h.size(); i++) {
        out.bucket(bucket, around, h.le(i), cumulative[i]);
      }
      out.sortedSample(base + "_count", c.labels(), h.count());
      if (!multiprocess) {
        out.sortedSample(base + "_sum", c.labels(), h.sum());
      }
    }
    if (createdSeries && !children.isEmpty()) {
      out.family(base + "_created", help, "gauge");
      for (HistogramChild c : children) {
        out.sortedSample(base + "_created", c.labels(), c.created());
      }
    }
  }

  private void created(String base, String help, List<Child> children) {
    // prometheus_client prints a _created family only when it has samples
    if (!createdSeries || children.isEmpty()) {
      return;
    }
    out.family(base + "_created", help, "gauge");
    for (Child c : children) {
      out.sortedSample(base + "_created", c.labels(), c.created());
    }
  }
}
