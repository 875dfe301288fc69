package dev.infermon.tsdb.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * A bulk load ({@link MemPostings#startUnordered()} … {@link MemPostings#ensureOrder()}) leaves the
 * same index as a naive reference of sorted sets, whatever the order of adds and removals, and
 * keeps the snapshots handed out before it.
 */
class MemPostingsBulkLoadTest {
  /** An add ({@code remove} false) of one id, or a removal of several. */
  record Op(boolean remove, List<Integer> ids) {}

  /** Each id always has the same labels, as a head series has (removals name them). */
  static Labels labelsOf(int id) {
    Labels base = Labels.of("__name__", "m" + id * 7 % 5, "pod", "p" + id % 4);
    return id % 3 == 0 ? Labels.of("__name__", "m" + id * 7 % 5, "le", "0." + id % 2) : base;
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Integer> ids = Arbitraries.integers().between(1, 80);
    Arbitrary<Op> add = ids.map(id -> new Op(false, List.of(id)));
    Arbitrary<Op> remove = ids.list().ofMinSize(1).ofMaxSize(6).map(l -> new Op(true, l));
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(6, add), net.jqwik.api.Tuple.of(1, remove))
        .list()
        .ofMaxSize(200);
  }

  @Provide
  Arbitrary<List<List<Op>>> phases() {
    // Ordered adds, then a bulk load, then ordered adds again.
    return Combinators.combine(ops(), ops(), ops()).as(List::of);
  }

  @Property(tries = 400)
  void aBulkLoadEndsAsTheSortedDeduplicatedReference(@ForAll("phases") List<List<Op>> phases) {
    MemPostings ix = new MemPostings();
    Reference ref = new Reference();
    apply(phases.get(0), ix, ref);
    Map<String, List<Long>> before = ref.lists();
    Map<String, Postings> snapshots = snapshots(ix, before.keySet());

    long copies = ix.copyingInserts();
    ix.startUnordered();
    apply(phases.get(1), ix, ref);
    ix.ensureOrder();
    assertEqual(ix, ref);
    assertThat(ix.copyingInserts()).as("a bulk load copies no list on insertion").isEqualTo(copies);

    apply(phases.get(2), ix, ref);
    assertEqual(ix, ref);
    snapshots.forEach(
        (pair, p) ->
            assertThat(Postings.toList(p))
                .as("snapshot of '%s' taken before the bulk load", pair)
                .isEqualTo(before.get(pair)));
  }

  @Test
  void postingsAndSizeCannotBeReadDuringABulkLoadButNamesAndValuesCan() {
    MemPostings ix = new MemPostings();
    ix.startUnordered();
    ix.add(5, labelsOf(5));
    ix.add(1, labelsOf(1));
    ix.add(5, labelsOf(5));

    assertThatThrownBy(() -> ix.postings("pod", "p1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ensureOrder");
    assertThatThrownBy(ix::allPostings).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(ix::size).isInstanceOf(IllegalStateException.class);
    assertThat(ix.labelValues("pod")).containsExactly("p1");

    ix.ensureOrder();
    assertThat(Postings.toList(ix.allPostings())).containsExactly(1L, 5L);
    assertThat(ix.size()).isEqualTo(2);
  }

  @Test
  void ordinaryAddsOutOfOrderCountTheirCopies() {
    MemPostings ix = new MemPostings();
    ix.add(2, Labels.of("a", "x"));
    ix.add(1, Labels.of("a", "x"));
    ix.add(3, Labels.of("a", "y"));

    // id 1 went before 2 in the list of all ids and in a="x"
    assertThat(ix.copyingInserts()).isEqualTo(2);
    ix.ensureOrder(); // no bulk load under way: nothing changes
    assertThat(Postings.toList(ix.postings("a", "x"))).containsExactly(1L, 2L);
  }

  private static void apply(List<Op> ops, MemPostings ix, Reference ref) {
    for (Op op : ops) {
      if (!op.remove()) {
        int id = op.ids().get(0);
        ix.add(id, labelsOf(id));
        ref.add(id, labelsOf(id));
        continue;
      }
      Map<Integer, Labels> gone = new HashMap<>();
      op.ids().forEach(id -> gone.put(id, labelsOf(id)));
      ix.remove(gone);
      gone.keySet().forEach(ref::remove);
    }
  }

  private static Map<String, Postings> snapshots(MemPostings ix, Iterable<String> pairs) {
    Map<String, Postings> out = new TreeMap<>();
    for (String pair : pairs) {
      out.put(pair, pair.isEmpty() ? ix.allPostings() : postings(ix, pair));
    }
    return out;
  }

  private static Postings postings(MemPostings ix, String pair) {
    int eq = pair.indexOf('=');
    return ix.postings(pair.substring(0, eq), pair.substring(eq + 1));
  }

  private static void assertEqual(MemPostings ix, Reference ref) {
    Map<String, List<Long>> want = ref.lists();
    Map<String, List<Long>> got = new TreeMap<>();
    got.put("", Postings.toList(ix.allPostings()));
    for (String name : ix.labelNames()) {
      for (String value : ix.labelValues(name)) {
        got.put(name + "=" + value, Postings.toList(ix.postings(name, value)));
      }
    }
    assertThat(got).isEqualTo(want);
    assertThat(ix.size()).isEqualTo(want.get("").size());
  }

  /** Sorted sets per label pair ("" for all ids), emptied pairs dropped. */
  private static final class Reference {
    final Map<String, TreeSet<Long>> sets = new TreeMap<>(Map.of("", new TreeSet<>()));

    void add(int id, Labels labels) {
      sets.get("").add((long) id);
      for (int i = 0; i < labels.size(); i++) {
        sets.computeIfAbsent(labels.name(i) + "=" + labels.value(i), k -> new TreeSet<>())
            .add((long) id);
      }
    }

    void remove(int id) {
      sets.values().forEach(s -> s.remove((long) id));
      sets.entrySet().removeIf(e -> !e.getKey().isEmpty() && e.getValue().isEmpty());
    }

    Map<String, List<Long>> lists() {
      Map<String, List<Long>> out = new TreeMap<>();
      sets.forEach((k, v) -> out.put(k, new ArrayList<>(v)));
      return out;
    }
  }
}
