package dev.infermon.llm.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fixed bucket bounds a histogram has in each release line of its engine, as runs of
 * consecutive lines with the same bounds: vLLM's {@code time_to_first_token_seconds} is one run to
 * 10 s in 0.4-0.7 and one to 2560 s from 0.8. A latency threshold read through {@code le} is
 * measured only on the releases whose run has it as a bound; on the others the bucket does not
 * exist, so a bucket ratio reads nothing there and a quantile above the run's last finite bound is
 * capped at that bound. Lines whose bounds are not fixed (configurable, {@code max_model_len}, not
 * known) are in no run: nothing can be said of them. Stateless.
 */
public final class ReleaseBounds {
  private ReleaseBounds() {}

  /**
   * Consecutive release lines with the same bounds.
   *
   * @param first the oldest line of the run
   * @param last the newest line of the run
   * @param bounds the finite bounds, increasing, not empty
   */
  public record Run(ReleaseLine first, ReleaseLine last, List<Double> bounds) {
    public Run {
      if (first == null || last == null || first.compareTo(last) > 0) {
        throw new IllegalArgumentException("bad run of releases: " + first + ".." + last);
      }
      if (bounds == null || bounds.isEmpty()) {
        throw new IllegalArgumentException(
            "a run of releases " + first + ".." + last + " needs bounds");
      }
      bounds = List.copyOf(bounds);
    }

    /** The releases as a reader writes them ({@code 0.4–0.7}, {@code 0.8}). */
    public String releases() {
      return new ReleaseRange(first, last).toString();
    }

    /** Where {@code value} falls among the run's bounds. */
    public BucketBounds.Placement place(double value) {
      return BucketBounds.place(value, bounds);
    }
  }

  /**
   * The runs of the family of {@code entries} over the lines of {@code engine} in {@code range}
   * (every line the catalog records when null), oldest first; lines without the family or without
   * fixed bounds are skipped.
   */
  public static List<Run> runs(
      EngineCatalog engine, List<MetricEntry> entries, ReleaseRange range) {
    List<Run> out = new ArrayList<>();
    ReleaseLine first = null;
    ReleaseLine last = null;
    List<Double> current = null;
    for (ReleaseLine v : engine.versions()) {
      List<Double> b =
          range == null || range.contains(v) ? boundsIn(entries, v).orElse(null) : null;
      if (current != null && (b == null || !b.equals(current))) {
        out.add(new Run(first, last, current));
        current = null;
      }
      if (b != null && current == null) {
        first = v;
        current = b;
      }
      if (b != null) {
        last = v;
      }
    }
    if (current != null) {
      out.add(new Run(first, last, current));
    }
    return List.copyOf(out);
  }

  /** The runs of {@code runs} where {@code value} is not a bound, oldest first. */
  public static List<Run> lacking(List<Run> runs, double value) {
    List<Run> out = new ArrayList<>();
    for (Run r : runs) {
      if (!r.place(value).onBound()) {
        out.add(r);
      }
    }
    return List.copyOf(out);
  }

  /**
   * The largest bound not above {@code value} that every set of {@code sets} has (a rule must read
   * a bucket that exists on each); empty when they share none.
   */
  public static Optional<Double> commonBoundAtOrBelow(List<List<Double>> sets, double value) {
    if (sets.isEmpty()) {
      return Optional.empty();
    }
    List<Double> first = sets.get(0);
    for (int i = first.size() - 1; i >= 0; i--) {
      double b = first.get(i);
      if (b > value && !BucketBounds.place(value, List.of(b)).onBound()) {
        continue;
      }
      boolean everywhere = true;
      for (List<Double> set : sets) {
        everywhere &= BucketBounds.place(b, set).onBound();
      }
      if (everywhere) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }

  private static Optional<List<Double>> boundsIn(List<MetricEntry> entries, ReleaseLine v) {
    for (MetricEntry m : entries) {
      if (m.existsIn(v)) {
        return BucketBounds.catalogBounds(m, v).filter(b -> !b.isEmpty());
      }
    }
    return Optional.empty();
  }
}
