package dev.infermon.lint.checks;

import dev.infermon.model.text.Suggest;
import java.util.Collection;

/**
 * The "did you mean" for a metric name that must never point at another quantity: a candidate
 * qualifies only when it has the same words (split at {@code _} and {@code :}) and every word that
 * differs is a misspelling of the other (a prefix of at least three letters, or one edit away from
 * a word of four letters or more, two from one of seven or more). {@code vllm:num_requests_runing}
 * finds {@code vllm:num_requests_running}; {@code vllm:num_requests_waiting} is never offered for
 * it, however few edits apart. Among qualifying candidates the closest wins, ties alphabetically.
 * Stateless.
 */
final class SameQuantity {
  private SameQuantity() {}

  /** The candidate naming the same quantity as {@code name}, misspelt, or null. */
  static String closest(String name, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      if (c.equals(name) || !sameWords(name, c)) {
        continue;
      }
      int d = Suggest.distance(name, c);
      if (d < bestDistance || (d == bestDistance && c.compareTo(best) < 0)) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  private static boolean sameWords(String a, String b) {
    String[] x = a.split("[_:]", -1);
    String[] y = b.split("[_:]", -1);
    if (x.length != y.length) {
      return false;
    }
    for (int i = 0; i < x.length; i++) {
      if (!x[i].equalsIgnoreCase(y[i]) && !misspelt(x[i], y[i])) {
        return false;
      }
    }
    return true;
  }

  /** Whether two different words are one misspelt as the other. */
  private static boolean misspelt(String a, String b) {
    String shorter = a.length() <= b.length() ? a : b;
    String longer = a.length() <= b.length() ? b : a;
    if (shorter.length() >= 3 && longer.startsWith(shorter)) {
      return true;
    }
    if (shorter.length() < 4) {
      return false;
    }
    return Suggest.distance(a, b) <= (shorter.length() >= 7 ? 2 : 1);
  }
}
