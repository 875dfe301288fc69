package dev.infermon.textparse;

/**
 * The samples of one histogram group (one label set without {@code le}, one timestamp) seen so far,
 * and the rules checked when the group closes. Mirrors the OpenMetrics reference parser's {@code
 * _check_histogram}; the text format checks the subset its documentation states.
 */
final class HistogramGroup {
  boolean active;
  long key;
  boolean hasTimestamp;
  long timestamp;
  int lastLine;

  private boolean hasBucket;
  private double lastLe;
  private double lastBucketValue;
  private boolean hasCount;
  private double count;
  private boolean hasSum;
  private boolean hasGsum;
  private boolean negativeBuckets;
  private boolean negativeGsum;

  void start(long key, boolean hasTimestamp, long timestamp) {
    active = true;
    this.key = key;
    this.hasTimestamp = hasTimestamp;
    this.timestamp = timestamp;
    hasBucket = false;
    lastLe = Double.NEGATIVE_INFINITY;
    lastBucketValue = 0;
    hasCount = false;
    count = 0;
    hasSum = false;
    hasGsum = false;
    negativeBuckets = false;
    negativeGsum = false;
  }

  boolean sameGroup(long key, boolean hasTimestamp, long timestamp) {
    return active
        && this.key == key
        && this.hasTimestamp == hasTimestamp
        && (!hasTimestamp || this.timestamp == timestamp);
  }

  /** Adds a bucket; returns a problem, or null. */
  String bucket(double le, double value, int line) {
    lastLine = line;
    if (le < 0) {
      negativeBuckets = true;
    }
    if (hasBucket && le <= lastLe) {
      return "buckets out of order: le=\"" + num(le) + "\" after le=\"" + num(lastLe) + "\"";
    }
    if (value < lastBucketValue) {
      return "bucket le=\""
          + num(le)
          + "\" counts "
          + num(value)
          + ", less than the "
          + num(lastBucketValue)
          + " of the bucket before it";
    }
    hasBucket = true;
    lastLe = le;
    lastBucketValue = value;
    return null;
  }

  void count(double value, int line) {
    lastLine = line;
    hasCount = true;
    count = value;
  }

  void sum(boolean gauge, double value, int line) {
    lastLine = line;
    if (gauge) {
      hasGsum = true;
      negativeGsum |= value < 0;
    } else {
      hasSum = true;
    }
  }

  void other(int line) {
    lastLine = line;
  }

  /** The first rule the closed group breaks, or null. */
  String close(boolean openMetrics) {
    active = false;
    if (!hasBucket || lastLe != Double.POSITIVE_INFINITY) {
      return "the histogram has no le=\"+Inf\" bucket";
    }
    if (hasCount && count != lastBucketValue) {
      return "the count "
          + num(count)
          + " differs from the le=\"+Inf\" bucket's "
          + num(lastBucketValue);
    }
    if (!openMetrics) {
      return null;
    }
    if (hasSum && !hasCount) {
      return "the histogram has _sum but no _count";
    }
    if (hasGsum && !hasCount) {
      return "the gauge histogram has _gsum but no _gcount";
    }
    if (hasCount && !hasSum && !hasGsum) {
      return "the histogram has a count but no sum";
    }
    if (negativeBuckets && hasSum) {
      return "a histogram with negative buckets cannot have _sum";
    }
    if (!negativeBuckets && negativeGsum) {
      return "_gsum is negative but no bucket is";
    }
    return null;
  }

  private static String num(double d) {
    if (d == Double.POSITIVE_INFINITY) {
      return "+Inf";
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
