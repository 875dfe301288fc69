package dev.infermon.lint.checks;

import java.util.Collection;

/** The closest name to a misspelt one (Levenshtein distance), for "did you mean". Stateless. */
final class Suggest {
  private Suggest() {}

  /** The candidate closest to {@code name} within a quarter of its length (at least 3), or null. */
  static String closest(String name, Collection<String> candidates) {
    int limit = Math.max(3, name.length() / 4);
    String best = null;
    int bestD = Integer.MAX_VALUE;
    for (String c : candidates) {
      if (c.equals(name) || Math.abs(c.length() - name.length()) > limit) {
        continue;
      }
      int d = distance(name, c, limit);
      if (d <= limit && (d < bestD || (d == bestD && c.compareTo(best) < 0))) {
        best = c;
        bestD = d;
      }
    }
    return best;
  }

  /** Levenshtein distance, or a value above {@code limit} once it must exceed it. */
  static int distance(String a, String b, int limit) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      int rowMin = cur[0];
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
        rowMin = Math.min(rowMin, cur[j]);
      }
      if (rowMin > limit) {
        return limit + 1;
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
