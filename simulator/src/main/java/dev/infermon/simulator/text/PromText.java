package dev.infermon.simulator.text;

/**
 * Appends text-format 0.0.4 lines. Label pairs are given as alternating names and values; {@link
 * #sortedSample} orders them by name as prometheus_client does, {@link #sample} keeps the caller's
 * order (dcgm-exporter's fixed order). Not thread-safe; one instance per rendering.
 */
public final class PromText {
  private final StringBuilder out;
  private final String[] scratch = new String[32];

  /** A writer with an initial buffer of {@code capacity} characters. */
  public PromText(int capacity) {
    this.out = new StringBuilder(capacity);
  }

  /** {@code # HELP} and {@code # TYPE} lines. */
  public PromText family(String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ');
    escapeHelp(help);
    out.append('\n').append("# TYPE ").append(name).append(' ').append(type).append('\n');
    return this;
  }

  /** A sample with labels sorted by name, value in Python's float format. */
  public PromText sortedSample(String name, String[] pairs, double value) {
    return sortedSample(name, pairs, null, null, value);
  }

  /** Like {@link #sortedSample(String, String[], double)} with one extra pair (the {@code le}). */
  public PromText sortedSample(
      String name, String[] pairs, String extraName, String extraValue, double value) {
    int n = pairs.length;
    System.arraycopy(pairs, 0, scratch, 0, n);
    if (extraName != null) {
      scratch[n++] = extraName;
      scratch[n++] = extraValue;
    }
    // insertion sort on pairs: label sets are tiny
    for (int i = 2; i < n; i += 2) {
      String k = scratch[i];
      String v = scratch[i + 1];
      int j = i - 2;
      while (j >= 0 && scratch[j].compareTo(k) > 0) {
        scratch[j + 2] = scratch[j];
        scratch[j + 3] = scratch[j + 1];
        j -= 2;
      }
      scratch[j + 2] = k;
      scratch[j + 3] = v;
    }
    out.append(name);
    labels(scratch, n);
    out.append(' ').append(PyFloat.format(value)).append('\n');
    return this;
  }

  /** A sample with labels in the given order and a preformatted value. */
  public PromText sample(String name, String[] pairs, String value) {
    out.append(name);
    labels(pairs, pairs.length);
    out.append(' ').append(value).append('\n');
    return this;
  }

  private void labels(String[] pairs, int n) {
    if (n == 0) {
      return;
    }
    out.append('{');
    for (int i = 0; i < n; i += 2) {
      if (i > 0) {
        out.append(',');
      }
      out.append(pairs[i]).append("=\"");
      escapeValue(pairs[i + 1]);
      out.append('"');
    }
    out.append('}');
  }

  private void escapeHelp(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c == '\n') {
        out.append("\\n");
      } else {
        out.append(c);
      }
    }
  }

  private void escapeValue(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '"') {
        out.append("\\\"");
      } else {
        out.append(c);
      }
    }
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
