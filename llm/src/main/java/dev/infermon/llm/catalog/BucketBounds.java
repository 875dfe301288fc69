package dev.infermon.llm.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A histogram's finite bucket bounds and where a threshold falls among them: on a bound (the
 * fraction below it is measured), between two (the quantile there is linearly interpolated, not
 * measured), or outside them. Stateless.
 */
public final class BucketBounds {
  private BucketBounds() {}

  /** Where a value falls: {@code lower} and {@code upper} are null beyond the first or last. */
  public record Placement(double value, Double lower, Double upper, boolean onBound) {
    /** The bounds to suggest, nearest first. */
    public List<Double> suggestions() {
      List<Double> out = new ArrayList<>();
      if (lower != null && upper != null) {
        if (value - lower <= upper - value) {
          out.add(lower);
          out.add(upper);
        } else {
          out.add(upper);
          out.add(lower);
        }
      } else if (lower != null) {
        out.add(lower);
      } else if (upper != null) {
        out.add(upper);
      }
      return out;
    }
  }

  /** Where {@code value} falls among increasing {@code bounds} (not empty). */
  public static Placement place(double value, List<Double> bounds) {
    if (bounds.isEmpty()) {
      throw new IllegalArgumentException("no bucket bounds to place " + value + " among");
    }
    Double lower = null;
    for (double b : bounds) {
      if (Math.abs(b - value) <= 1e-9 * Math.max(1, Math.abs(b))) {
        return new Placement(value, b, b, true);
      }
      if (b < value) {
        lower = b;
      } else {
        return new Placement(value, lower, b, false);
      }
    }
    return new Placement(value, lower, null, false);
  }

  /**
   * The fixed bounds the catalog gives {@code entry} in release {@code v}; empty when they are
   * configurable, follow {@code max_model_len} or are not known.
   */
  public static Optional<List<Double>> catalogBounds(MetricEntry entry, ReleaseLine v) {
    List<BucketSpec> specs = entry.bucketsIn(v);
    // the newest spec wins where releases overlap (approximate since/until in the data)
    for (int i = specs.size() - 1; i >= 0; i--) {
      BucketSpec b = specs.get(i);
      if (b.rule() == BucketSpec.Rule.FIXED) {
        return Optional.of(b.bounds());
      }
      if (b.rule() == BucketSpec.Rule.EXPONENTIAL) {
        List<Double> out = new ArrayList<>();
        double x = b.start();
        for (int k = 0; k < b.count(); k++) {
          out.add(x);
          x *= b.factor();
        }
        return Optional.of(out);
      }
    }
    return Optional.empty();
  }

  /** A bound as the engines' Python clients print it in {@code le} ({@code 2.5}, {@code 1.0}). */
  public static String le(double bound) {
    if (bound == Math.rint(bound) && Math.abs(bound) < 1e15) {
      return String.format(Locale.ROOT, "%.1f", bound);
    }
    return Double.toString(bound);
  }

  /** A threshold as a human writes it ({@code 2}, {@code 2.5}). */
  public static String num(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
