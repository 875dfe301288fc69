package dev.infermon.rules.template;

import java.time.Instant;

/** Prometheus's {@code humanize*} template functions, digit for digit. Stateless. */
final class Humanize {
  private Humanize() {}

  private static final String[] BIG = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
  private static final String[] BIG1024 = {"ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
  private static final String[] SMALL = {"m", "u", "n", "p", "f", "a", "z", "y"};

  private static String g4(double v) {
    return GoFormat.formatFloat(v, 'g', 4);
  }

  static String humanize(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    if (Math.abs(v) >= 1) {
      String prefix = "";
      for (String p : BIG) {
        if (Math.abs(v) < 1000) {
          break;
        }
        prefix = p;
        v /= 1000;
      }
      return g4(v) + prefix;
    }
    String prefix = "";
    for (String p : SMALL) {
      if (Math.abs(v) >= 1) {
        break;
      }
      prefix = p;
      v *= 1000;
    }
    return g4(v) + prefix;
  }

  static String humanize1024(double v) {
    if (Math.abs(v) <= 1 || Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    String prefix = "";
    for (String p : BIG1024) {
      if (Math.abs(v) < 1024) {
        break;
      }
      prefix = p;
      v /= 1024;
    }
    return g4(v) + prefix;
  }

  static String duration(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    if (v == 0) {
      return g4(v) + "s";
    }
    if (Math.abs(v) >= 1) {
      String sign = "";
      if (v < 0) {
        sign = "-";
        v = -v;
      }
      long d = (long) v;
      long seconds = d % 60;
      long minutes = (d / 60) % 60;
      long hours = (d / 60 / 60) % 24;
      long days = d / 60 / 60 / 24;
      if (days != 0) {
        return sign + days + "d " + hours + "h " + minutes + "m " + seconds + "s";
      }
      if (hours != 0) {
        return sign + hours + "h " + minutes + "m " + seconds + "s";
      }
      if (minutes != 0) {
        return sign + minutes + "m " + seconds + "s";
      }
      return sign + g4(v) + "s";
    }
    String prefix = "";
    for (String p : SMALL) {
      if (Math.abs(v) >= 1) {
        break;
      }
      prefix = p;
      v *= 1000;
    }
    return g4(v) + prefix + "s";
  }

  static String percentage(double v) {
    return g4(v * 100) + "%";
  }

  static String timestamp(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    double ns = v * 1e9;
    if (ns > Long.MAX_VALUE || ns < Long.MIN_VALUE) {
      throw new IllegalArgumentException(
          GoFormat.formatFloat(v, 'g', -1)
              + " cannot be represented as a nanoseconds timestamp since it overflows int64");
    }
    long ms = ((long) ns) / 1_000_000;
    return Funcs.goTime(Instant.ofEpochMilli(ms));
  }
}
