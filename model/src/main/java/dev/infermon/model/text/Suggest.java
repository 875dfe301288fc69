package dev.infermon.model.text;

import java.util.Collection;

/**
 * The product's one "did you mean": the closest known name to a misspelt one, for configuration
 * keys (config's strict YAML, rule files) and for metric and label names in lint. Close enough
 * means within the optimal string alignment distance (Levenshtein plus adjacent transpositions,
 * each one edit: {@code port_nmae} is one edit from {@code port_name}) of a third of the name's
 * length, at least 1 and at most 3 edits; among candidates equally close the alphabetically first
 * wins, so the answer does not depend on the collection's order. Stateless.
 */
public final class Suggest {
  private Suggest() {}

  /**
   * The candidate closest to {@code name}, or null when none is close enough or the only close one
   * is {@code name} itself.
   */
  public static String closest(String name, Collection<String> candidates) {
    int allowed = allowedEdits(name);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      if (c.equals(name) || Math.abs(c.length() - name.length()) > allowed) {
        continue; // each edit changes the length by at most one
      }
      int d = distance(name, c, allowed);
      if (d <= allowed && (d < bestDistance || (d == bestDistance && c.compareTo(best) < 0))) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  /** How many edits a suggestion for {@code name} may be away: a third of its length, 1 to 3. */
  public static int allowedEdits(String name) {
    return Math.max(1, Math.min(3, name.length() / 3));
  }

  /** The optimal string alignment distance between {@code a} and {@code b}. */
  public static int distance(String a, String b) {
    return distance(a, b, Integer.MAX_VALUE - 1);
  }

  /**
   * The optimal string alignment distance, or {@code limit + 1} as soon as it must exceed {@code
   * limit} (a row's minimum never decreases down the table).
   */
  static int distance(String a, String b, int limit) {
    int n = b.length();
    int[] before = new int[n + 1]; // row i - 2, for transpositions
    int[] prev = new int[n + 1];
    int[] cur = new int[n + 1];
    for (int j = 0; j <= n; j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      int rowMin = i;
      for (int j = 1; j <= n; j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int d = Math.min(Math.min(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d = Math.min(d, before[j - 2] + 1);
        }
        cur[j] = d;
        rowMin = Math.min(rowMin, d);
      }
      if (rowMin > limit) {
        return limit + 1;
      }
      int[] t = before;
      before = prev;
      prev = cur;
      cur = t;
    }
    return prev[n];
  }
}
