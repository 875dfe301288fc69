package dev.infermon.tsdb.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PostingsTest {
  private static Postings list(int... ids) {
    return Postings.of(ids, ids.length);
  }

  private static Postings of(Set<Integer> ids) {
    return list(ids.stream().mapToInt(Integer::intValue).sorted().toArray());
  }

  @Test
  void setOperationsOnSmallLists() {
    assertThat(
            Postings.toList(
                Postings.intersect(List.of(list(1, 3, 5, 7), list(3, 4, 5), list(0, 3, 5, 9)))))
        .containsExactly(3L, 5L);
    assertThat(Postings.toList(Postings.union(List.of(list(1, 5), list(2, 5, 9), list()))))
        .containsExactly(1L, 2L, 5L, 9L);
    assertThat(Postings.toList(Postings.without(list(1, 2, 3, 4, 5), list(2, 4, 6))))
        .containsExactly(1L, 3L, 5L);
    assertThat(Postings.toList(Postings.intersect(List.of()))).isEmpty();
    assertThat(Postings.toList(Postings.union(List.of()))).isEmpty();
  }

  @Test
  void seekNeverMovesBackAndFindsTheFirstAtOrAfter() {
    Postings p = list(2, 4, 8, 16, 32, 64, 128);
    assertThat(p.seek(5)).isTrue();
    assertThat(p.at()).isEqualTo(8);
    assertThat(p.seek(1)).isTrue();
    assertThat(p.at()).isEqualTo(8);
    assertThat(p.seek(100)).isTrue();
    assertThat(p.at()).isEqualTo(128);
    assertThat(p.seek(129)).isFalse();
    assertThat(p.next()).isFalse();
  }

  /** Every combinator equals the same operation on sets, through next() and seek(). */
  @Property(tries = 300)
  void combinatorsAgreeWithSetAlgebra(
      @ForAll @Size(max = 4) List<@Size(max = 40) Set<@IntRange(min = 1, max = 120) Integer>> sets,
      @ForAll @IntRange(min = 0, max = 130) int seekTo) {
    TreeSet<Integer> inter = null;
    TreeSet<Integer> union = new TreeSet<>();
    for (Set<Integer> s : sets) {
      union.addAll(s);
      if (inter == null) {
        inter = new TreeSet<>(s);
      } else {
        inter.retainAll(s);
      }
    }
    if (inter == null) {
      inter = new TreeSet<>();
    }
    TreeSet<Integer> without = new TreeSet<>(union);
    if (!sets.isEmpty()) {
      without.removeAll(sets.get(0));
    }

    assertThat(Postings.toList(Postings.intersect(lists(sets)))).isEqualTo(longs(inter));
    assertThat(Postings.toList(Postings.union(lists(sets)))).isEqualTo(longs(union));
    Postings w =
        Postings.without(Postings.union(lists(sets)), sets.isEmpty() ? list() : of(sets.get(0)));
    assertThat(Postings.toList(w)).isEqualTo(longs(without));

    assertSeek(Postings.intersect(lists(sets)), inter, seekTo);
    assertSeek(Postings.union(lists(sets)), union, seekTo);
  }

  private static void assertSeek(Postings p, TreeSet<Integer> want, int target) {
    Integer first = want.ceiling(target);
    assertThat(p.seek(target)).isEqualTo(first != null);
    if (first != null) {
      assertThat(p.at()).isEqualTo(first.longValue());
      assertThat(Postings.toList(p)).isEqualTo(longs(want.tailSet(first, false)));
    }
  }

  private static List<Postings> lists(List<Set<Integer>> sets) {
    List<Postings> out = new ArrayList<>();
    for (Set<Integer> s : sets) {
      out.add(of(s));
    }
    return out;
  }

  private static List<Long> longs(Set<Integer> s) {
    List<Long> out = new ArrayList<>();
    for (int i : s) {
      out.add((long) i);
    }
    return out;
  }
}
