package dev.infermon.simulator.text;

/**
 * Appends text-format 0.0.4 lines. Label pairs are given as alternating names and values; {@link
 * #sortedSample} orders them by name as prometheus_client does, {@link #sample} keeps the caller's
 * order (dcgm-exporter's fixed order). Not thread-safe; one instance per rendering.
 */
public final class PromText {
  private final StringBuilder out;
  private String[] scratch = new String[64];

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
    if (scratch.length < n + 2) {
      scratch = new String[n + 2];
    }
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

  /**
   * The label text {@code {a="1",le="<here>",b="2"}} of {@code pairs} plus {@code le}, sorted,
   * split around the {@code le} value, so that a histogram's bucket lines can be written without
   * sorting and escaping again for every bucket.
   */
  public String[] sortedAroundLe(String[] pairs) {
    PromText tmp = new PromText(128);
    tmp.sortedSample("", pairs, "le", "\u0000", 0);
    String text = tmp.toString();
    int cut = text.indexOf('\u0000');
    int end = text.lastIndexOf('}') + 1;
    return new String[] {text.substring(0, cut), text.substring(cut + 1, end)};
  }

  /** Appends {@code name + prefix + le + suffix + " " + value}: a bucket line. */
  public PromText bucket(String name, String[] around, String le, double value) {
    out.append(name).append(around[0]).append(le).append(around[1]).append(' ');
    out.append(PyFloat.format(value)).append('\n');
    return this;
  }

  /** Appends a sample whose label text is already rendered ({@code {...}} or empty). */
  public PromText rawSample(String name, String labelText, String value) {
    out.append(name).append(labelText).append(' ').append(value).append('\n');
    return this;
  }

  /** The label text {@code {a="1",b="2"}} of pairs in the given order ({@code ""} when none). */
  public static String labelText(String[] pairs) {
    PromText tmp = new PromText(256);
    tmp.labels(pairs, pairs.length);
    return tmp.toString();
  }

  private void escapeHelp(String s) {
    if (s.indexOf('\\') < 0 && s.indexOf('\n') < 0) {
      out.append(s);
      return;
    }
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
    if (s.indexOf('\\') < 0 && s.indexOf('\n') < 0 && s.indexOf('"') < 0) {
      out.append(s);
      return;
    }
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
