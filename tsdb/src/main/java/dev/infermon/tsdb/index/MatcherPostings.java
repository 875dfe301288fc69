package dev.infermon.tsdb.index;

import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns matchers into postings with Prometheus's semantics ({@code tsdb/querier.go}
 * PostingsForMatchers): a label that is absent has the empty value, so a matcher that matches ""
 * also selects series without the label. Such matchers are evaluated by subtracting the series
 * whose value does not match, from the other matchers' result or from every series.
 */
public final class MatcherPostings {
  private MatcherPostings() {}

  /** Series that match every matcher; every series when there are none. */
  public static Postings select(PostingsReader ix, List<Matcher> matchers) {
    if (matchers.isEmpty()) {
      return ix.allPostings();
    }
    // A label that some matcher requires to be non-empty lets "!=" style matchers on it subtract
    // instead of scanning (Prometheus's labelMustBeSet).
    Set<String> mustBeSet = new HashSet<>();
    for (Matcher m : matchers) {
      if (!m.matchesEmpty()) {
        mustBeSet.add(m.name());
      }
    }
    List<Postings> its = new ArrayList<>();
    List<Postings> notIts = new ArrayList<>();
    for (Matcher m : matchers) {
      boolean isNot = m.type() == MatchType.NOT_EQUAL || m.type() == MatchType.NOT_REGEX;
      if (mustBeSet.contains(m.name())) {
        if (isNot && m.matchesEmpty()) {
          // l!="foo" with l set: subtract the series where l matches the inverse.
          notIts.add(postingsForValues(ix, m, true));
        } else if (isNot) {
          // l!~"" style: series whose value does not match the inverse, i.e. matches m.
          its.add(postingsForValues(ix, m, false));
        } else {
          its.add(postingsFor(ix, m));
        }
      } else {
        // m matches "": it selects every series except those whose value fails it.
        notIts.add(postingsForValues(ix, m, true));
      }
    }
    if (its.isEmpty()) {
      its.add(ix.allPostings());
    }
    Postings it = Postings.intersect(its);
    for (Postings n : notIts) {
      it = Postings.without(it, n);
    }
    return it;
  }

  /** Postings of the values {@code m} matches, using {@link Matcher#setMatches()} when it can. */
  private static Postings postingsFor(PostingsReader ix, Matcher m) {
    if (m.type() == MatchType.EQUAL) {
      return ix.postings(m.name(), m.value());
    }
    Set<String> set = m.setMatches();
    if (set != null) {
      List<Postings> lists = new ArrayList<>(set.size());
      for (String v : set) {
        if (!v.isEmpty()) {
          lists.add(ix.postings(m.name(), v));
        }
      }
      return Postings.union(lists);
    }
    return postingsForValues(ix, m, false);
  }

  /**
   * Union of the postings of every existing value of the label that {@code m} matches, or fails
   * when {@code failing}.
   */
  private static Postings postingsForValues(PostingsReader ix, Matcher m, boolean failing) {
    List<Postings> lists = new ArrayList<>();
    for (String v : ix.labelValues(m.name())) {
      if (m.matches(v) != failing) {
        lists.add(ix.postings(m.name(), v));
      }
    }
    return Postings.union(lists);
  }
}
