package dev.infermon.storage.testing;

import dev.infermon.model.value.StaleNaN;

/**
 * A sample as tests compare it: equal when the time and the value's raw bits are equal, so a
 * staleness marker never equals an ordinary NaN (record equality would treat all NaNs alike).
 */
public record Sample(long t, double v) {
  public static Sample of(long t, double v) {
    return new Sample(t, v);
  }

  /** A staleness marker at {@code t}. */
  public static Sample stale(long t) {
    return new Sample(t, StaleNaN.VALUE);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Sample)) {
      return false;
    }
    Sample s = (Sample) o;
    return t == s.t && Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(s.v);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(t) * 31 + Long.hashCode(Double.doubleToRawLongBits(v));
  }

  @Override
  public String toString() {
    return t + ":" + (StaleNaN.is(v) ? "stale" : Double.toString(v));
  }
}
