package dev.infermon.llm.capacity;

/**
 * An ordinary least-squares line {@code y = intercept + slope·x} with the slope's standard error.
 * Immutable.
 *
 * @param intercept at {@code x = 0}
 * @param slope change of {@code y} per unit of {@code x}
 * @param slopeError the slope's standard error (0 with two points)
 * @param points the points fitted
 * @param meanX the mean of {@code x}
 * @param spreadX the standard deviation of {@code x}
 */
record Line(
    double intercept, double slope, double slopeError, int points, double meanX, double spreadX) {

  /** The line through the finite pairs of {@code x} and {@code y}; null with fewer than two. */
  static Line fit(double[] x, double[] y) {
    int n = 0;
    double sx = 0;
    double sy = 0;
    for (int i = 0; i < x.length; i++) {
      if (Double.isFinite(x[i]) && Double.isFinite(y[i])) {
        n++;
        sx += x[i];
        sy += y[i];
      }
    }
    if (n < 2) {
      return null;
    }
    double mx = sx / n;
    double my = sy / n;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < x.length; i++) {
      if (Double.isFinite(x[i]) && Double.isFinite(y[i])) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
      }
    }
    if (!(sxx > 0)) {
      return new Line(my, 0, Double.POSITIVE_INFINITY, n, mx, 0);
    }
    double slope = sxy / sxx;
    double rss = 0;
    for (int i = 0; i < x.length; i++) {
      if (Double.isFinite(x[i]) && Double.isFinite(y[i])) {
        double r = y[i] - my - slope * (x[i] - mx);
        rss += r * r;
      }
    }
    double se = n > 2 ? Math.sqrt(rss / (n - 2) / sxx) : 0;
    return new Line(my - slope * mx, slope, se, n, mx, Math.sqrt(sxx / n));
  }

  /** Whether the slope is positive beyond twice its standard error. */
  boolean rising() {
    return slope > 0 && slope > 2 * slopeError;
  }
}
