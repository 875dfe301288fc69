package dev.infermon.llm.catalog;

import java.util.List;

/**
 * A histogram's bucket bounds in some releases: a fixed list, vLLM's 1-2-5 rule capped at {@code
 * max_model_len}, an exponential series, or "any" where the bounds are configurable or unknown. The
 * {@code +Inf} bucket is implied and never listed.
 *
 * @param since first release with these bounds, or null
 * @param until first release without them, or null
 * @param rule how the bounds are made
 * @param bounds the finite bounds for {@link Rule#FIXED}, strictly increasing
 * @param start first bound for {@link Rule#EXPONENTIAL}
 * @param factor growth factor for {@link Rule#EXPONENTIAL}
 * @param count number of finite bounds for {@link Rule#EXPONENTIAL}
 * @param note where the bounds come from, when that matters
 */
public record BucketSpec(
    ReleaseLine since,
    ReleaseLine until,
    Rule rule,
    List<Double> bounds,
    double start,
    double factor,
    int count,
    String note) {
  /** How the bounds are made. */
  public enum Rule {
    FIXED,
    ONE_TWO_FIVE,
    EXPONENTIAL,
    ANY
  }

  public BucketSpec {
    bounds = List.copyOf(bounds);
    if (rule == Rule.FIXED) {
      if (bounds.isEmpty()) {
        throw new IllegalArgumentException("fixed buckets need bounds");
      }
      for (int i = 1; i < bounds.size(); i++) {
        if (!(bounds.get(i) > bounds.get(i - 1))) {
          throw new IllegalArgumentException("bucket bounds must increase: " + bounds);
        }
      }
    }
    if (rule == Rule.EXPONENTIAL && (start <= 0 || factor <= 1 || count < 1)) {
      throw new IllegalArgumentException(
          "exponential buckets need start > 0, factor > 1, count >= 1");
    }
  }

  /** Whether these bounds apply in release {@code v}. */
  public boolean in(ReleaseLine v) {
    return v.atLeast(since) && v.before(until);
  }

  /** Whether {@code observed} finite bounds (increasing, without +Inf) are what this spec makes. */
  public boolean matches(List<Double> observed) {
    switch (rule) {
      case ANY:
        return true;
      case FIXED:
        return sameBounds(bounds, observed);
      case EXPONENTIAL:
        {
          if (observed.size() != count) {
            return false;
          }
          double b = start;
          for (double o : observed) {
            if (Math.abs(o - b) > 1e-9 * Math.max(1, b)) {
              return false;
            }
            b *= factor;
          }
          return true;
        }
      case ONE_TWO_FIVE:
        {
          // 1, 2, 5, 10, 20, 50, ... up to the largest value <= max_model_len: a prefix
          double[] steps = {1, 2, 5};
          double decade = 1;
          int i = 0;
          for (double o : observed) {
            double want = steps[i % 3] * decade;
            if (o != want) {
              return false;
            }
            i++;
            if (i % 3 == 0) {
              decade *= 10;
            }
          }
          return !observed.isEmpty();
        }
      default:
        throw new AssertionError(rule);
    }
  }

  private static boolean sameBounds(List<Double> a, List<Double> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (Double.compare(a.get(i), b.get(i)) != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    switch (rule) {
      case FIXED:
        return bounds.toString();
      case EXPONENTIAL:
        return start + " x " + factor + "^i (" + count + ")";
      case ONE_TWO_FIVE:
        return "1-2-5 up to max_model_len";
      default:
        return "any" + (note == null ? "" : " (" + note + ")");
    }
  }
}
