package dev.infermon.llm.capacity;

/**
 * The fitted relationship between a pod's request rate {@code λ} and its mean KV-cache usage {@code
 * u}: {@code u = A·λ / (1 - B·λ)}. Why this shape: by Little's law the requests in the batch are
 * {@code λ·W}, and each holds KV for its residence time {@code W}; {@code W} grows with the batch
 * (every decode step costs more with more sequences), {@code W = n·(a + b·running)}, which solves
 * to the hyperbola: usage grows faster than load and reaches the ceiling sooner than a straight
 * line through the observed points would. {@code B = 0} is the straight line.
 *
 * <p>Fitted by ordinary least squares on its linear form {@code u = A·λ + B·(λ·u)} (no intercept:
 * no load, no KV), which keeps the error on {@code u}, the noisier reading. Immutable.
 *
 * @param a KV usage per unit of request rate at light load
 * @param b how much the residence time grows with load, per unit of request rate
 * @param covAA variance of {@code a}
 * @param covAB covariance of {@code a} and {@code b}
 * @param covBB variance of {@code b}
 * @param points the points fitted
 */
record KvFit(double a, double b, double covAA, double covAB, double covBB, int points) {
  /** Two parameters and at least a few degrees of freedom. */
  static final int MIN_POINTS = 6;

  /** The fit of {@code usage} against {@code rate}, point by point; null when degenerate. */
  static KvFit of(double[] rate, double[] usage) {
    int n = rate.length;
    if (n != usage.length) {
      throw new IllegalArgumentException("rate and usage differ in length");
    }
    if (n < MIN_POINTS) {
      return null;
    }
    double s11 = 0;
    double s12 = 0;
    double s22 = 0;
    double sy1 = 0;
    double sy2 = 0;
    for (int i = 0; i < n; i++) {
      double x1 = rate[i];
      double x2 = rate[i] * usage[i];
      s11 += x1 * x1;
      s12 += x1 * x2;
      s22 += x2 * x2;
      sy1 += x1 * usage[i];
      sy2 += x2 * usage[i];
    }
    double det = s11 * s22 - s12 * s12;
    if (!(det > 1e-12 * s11 * s22)) {
      return null; // the two regressors are proportional: usage did not move with load
    }
    double a = (s22 * sy1 - s12 * sy2) / det;
    double b = (s11 * sy2 - s12 * sy1) / det;
    double rss = 0;
    for (int i = 0; i < n; i++) {
      double r = usage[i] - a * rate[i] - b * rate[i] * usage[i];
      rss += r * r;
    }
    double s2 = rss / (n - 2);
    return new KvFit(a, b, s2 * s22 / det, -s2 * s12 / det, s2 * s11 / det, n);
  }

  /** The rate at which usage reaches {@code ceiling}; NaN when the fit never reaches it. */
  double rateAt(double ceiling) {
    double d = a + b * ceiling;
    return a > 0 && d > 0 ? ceiling / d : Double.NaN;
  }

  /**
   * The standard error of {@link #rateAt} from the parameters' covariance (the delta method): the
   * statistical part of the uncertainty only, not the model's.
   */
  double rateAtError(double ceiling) {
    double d = a + b * ceiling;
    double ga = -ceiling / (d * d);
    double gb = -ceiling * ceiling / (d * d);
    double v = ga * ga * covAA + 2 * ga * gb * covAB + gb * gb * covBB;
    return Math.sqrt(Math.max(0, v));
  }

  /** The usage the fit predicts at {@code rate}. */
  double usageAt(double rate) {
    double d = 1 - b * rate;
    return d > 0 ? a * rate / d : Double.POSITIVE_INFINITY;
  }
}
