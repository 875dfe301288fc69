package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Matcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Resolves matchers to sorted series ids of one block with Prometheus's semantics: a matcher that
 * does not match the empty string selects the union of the postings of the values it matches; one
 * that does match the empty string selects every series except those whose value it rejects (so a
 * series without the label is kept). The result is the intersection of the former minus the union
 * of the latter's exclusions, starting from all series when only the latter are given.
 */
final class Postings {
  private Postings() {}

  static int[] forMatchers(IndexReader index, List<Matcher> matchers) {
    List<int[]> include = new ArrayList<>();
    List<int[]> exclude = new ArrayList<>();
    for (Matcher m : matchers) {
      if (m.matchesEmpty()) {
        List<int[]> rejected = new ArrayList<>();
        for (String v : index.values(m.name())) {
          if (!m.matches(v)) {
            rejected.add(index.postings(m.name(), v));
          }
        }
        if (!rejected.isEmpty()) {
          exclude.add(union(rejected));
        }
      } else {
        List<int[]> lists = new ArrayList<>();
        Set<String> set = m.setMatches();
        if (set != null) {
          for (String v : set) {
            lists.add(index.postings(m.name(), v));
          }
        } else {
          for (String v : index.values(m.name())) {
            if (m.matches(v)) {
              lists.add(index.postings(m.name(), v));
            }
          }
        }
        int[] u = union(lists);
        if (u.length == 0) {
          return u;
        }
        include.add(u);
      }
    }
    int[] result;
    if (include.isEmpty()) {
      result = index.allPostings();
    } else {
      include.sort(Comparator.comparingInt(a -> a.length));
      result = include.get(0);
      for (int i = 1; i < include.size() && result.length > 0; i++) {
        result = intersect(result, include.get(i));
      }
    }
    for (int[] ex : exclude) {
      result = subtract(result, ex);
    }
    return result;
  }

  static int[] intersect(int[] a, int[] b) {
    int[] out = new int[Math.min(a.length, b.length)];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        out[n++] = a[i];
        i++;
        j++;
      }
    }
    return Arrays.copyOf(out, n);
  }

  static int[] subtract(int[] a, int[] b) {
    int[] out = new int[a.length];
    int j = 0;
    int n = 0;
    for (int x : a) {
      while (j < b.length && b[j] < x) {
        j++;
      }
      if (j < b.length && b[j] == x) {
        continue;
      }
      out[n++] = x;
    }
    return Arrays.copyOf(out, n);
  }

  static int[] union(List<int[]> lists) {
    if (lists.isEmpty()) {
      return new int[0];
    }
    if (lists.size() == 1) {
      return lists.get(0);
    }
    int total = 0;
    for (int[] l : lists) {
      total += l.length;
    }
    int[] all = new int[total];
    int p = 0;
    for (int[] l : lists) {
      System.arraycopy(l, 0, all, p, l.length);
      p += l.length;
    }
    Arrays.sort(all);
    int n = 0;
    for (int i = 0; i < all.length; i++) {
      if (n == 0 || all[n - 1] != all[i]) {
        all[n++] = all[i];
      }
    }
    return Arrays.copyOf(all, n);
  }
}
