package dev.infermon.promql.engine;

/**
 * Natural ordering of label values for {@code sort_by_label}: runs of digits compare as numbers,
 * everything else as text ("a2" before "a10"), as the natsort package Prometheus uses. Stateless.
 */
final class NaturalOrder {
  private NaturalOrder() {}

  static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      boolean da = Character.isDigit(a.charAt(i));
      boolean db = Character.isDigit(b.charAt(j));
      int ie = runEnd(a, i, da);
      int je = runEnd(b, j, db);
      String ca = a.substring(i, ie);
      String cb = b.substring(j, je);
      int c;
      if (da && db) {
        c = compareDigits(ca, cb);
      } else {
        c = ca.compareTo(cb);
      }
      if (c != 0) {
        return c;
      }
      i = ie;
      j = je;
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  private static int runEnd(String s, int from, boolean digits) {
    int k = from;
    while (k < s.length() && Character.isDigit(s.charAt(k)) == digits) {
      k++;
    }
    return k;
  }

  private static int compareDigits(String a, String b) {
    String x = a.replaceFirst("^0+(?=.)", "");
    String y = b.replaceFirst("^0+(?=.)", "");
    if (x.length() != y.length()) {
      return Integer.compare(x.length(), y.length());
    }
    int c = x.compareTo(y);
    return c != 0 ? c : a.compareTo(b);
  }
}
