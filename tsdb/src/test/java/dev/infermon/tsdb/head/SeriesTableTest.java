package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The head's series table against a {@link HashMap}, alone and under concurrent creation. */
class SeriesTableTest {
  private final StringInterner interner = new StringInterner();

  private MemSeries newSeries(int id, Labels l) {
    return new MemSeries(l, id);
  }

  private static Labels labels(int i) {
    return Labels.of("__name__", "m" + (i % 7), "pod", "p" + i);
  }

  @Test
  void behavesAsAMapThroughGrowthRemovalAndReuse() {
    SeriesTable t = new SeriesTable();
    Map<Labels, MemSeries> ref = new HashMap<>();
    Random rnd = new Random(42);
    for (int step = 0; step < 20_000; step++) {
      Labels l = labels(rnd.nextInt(3000));
      MemSeries s = t.get(l);
      assertThat(s).isSameAs(ref.get(l));
      if (s != null && rnd.nextInt(3) == 0) {
        t.remove(s);
        ref.remove(l);
        assertThat(t.get(l)).isNull();
        assertThat(t.get(s.id)).isNull();
      } else if (s == null) {
        MemSeries created = t.getOrCreate(l, interner, this::newSeries);
        assertThat(created.labels).isEqualTo(l);
        assertThat(t.get(created.id)).isSameAs(created);
        ref.put(l, created);
      } else {
        assertThat(t.getOrCreate(l, interner, (id, x) -> null)).isSameAs(s);
      }
      assertThat(t.size()).isEqualTo(ref.size());
    }
    List<MemSeries> all = new ArrayList<>();
    t.forEach(all::add);
    assertThat(all).containsExactlyInAnyOrderElementsOf(ref.values());
    // Tombstones do not pile up: the table stays within a small multiple of its live series.
    assertThat(t.capacity()).isLessThanOrEqualTo(SeriesTable.capacityFor(3000) * 2);
  }

  @Test
  void aTableFilledInAnotherTablesOrderDoesNotCluster() {
    // A replay creates series in the order a checkpoint listed them: another table's slot order.
    SeriesTable first = new SeriesTable();
    for (int i = 0; i < 50_000; i++) {
      first.getOrCreate(labels(i), interner, this::newSeries);
    }
    List<MemSeries> order = new ArrayList<>();
    first.forEach(order::add);

    SeriesTable second = new SeriesTable();
    int longest = 0;
    for (int i = 0; i < order.size(); i++) {
      MemSeries s = order.get(i);
      second.createWithId(s.id, s.labels, interner, this::newSeries);
      if (i % 2_500 == 0) {
        longest = Math.max(longest, second.longestRun());
      }
    }

    assertThat(second.size()).isEqualTo(50_000);
    // Linear probing at most three quarters full keeps runs to a few hundred slots when slots are
    // independent of the insertion order (at most 223 in 40 runs; beyond 1,500 is a chance of
    // about e^-56). Filled in the order of the same hash, the series created so far all hashed
    // into the start of the table, one run that each creation probed through (22,501 series at
    // 22,500 created).
    assertThat(first.longestRun()).isLessThan(1_500);
    assertThat(longest).isLessThan(1_500);
  }

  @Test
  void churnThroughOneLabelSetDoesNotGrowTheTable() {
    SeriesTable t = new SeriesTable();
    for (int i = 0; i < 10_000; i++) {
      MemSeries s = t.getOrCreate(labels(i), interner, this::newSeries);
      t.remove(s);
    }
    assertThat(t.size()).isZero();
    assertThat(t.capacity()).isEqualTo(SeriesTable.capacityFor(0));
  }

  @Test
  void replayKeepsTheLoggedIdAndLaterIdsGoAboveIt() {
    SeriesTable t = new SeriesTable();
    MemSeries s = t.createWithId(500, labels(1), interner, this::newSeries);
    assertThat(s.id).isEqualTo(500);
    assertThat(t.get(labels(1))).isSameAs(s);
    assertThat(t.createWithId(9, labels(1), interner, this::newSeries)).isSameAs(s);
    assertThat(t.getOrCreate(labels(2), interner, this::newSeries).id).isEqualTo(501);
  }

  @Test
  void concurrentCreatorsGetOneSeriesPerLabelSet() throws Exception {
    SeriesTable t = new SeriesTable();
    Map<Labels, AtomicInteger> made = new ConcurrentHashMap<>();
    int threads = 4;
    int sets = 5_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<MemSeries>>> results = new ArrayList<>();
    for (int k = 0; k < threads; k++) {
      int seed = k;
      results.add(
          pool.submit(
              () -> {
                start.await();
                List<MemSeries> got = new ArrayList<>();
                for (int i = 0; i < sets; i++) {
                  int n = (i * 7 + seed * 1013) % sets; // each thread in its own order
                  got.add(
                      t.getOrCreate(
                          labels(n),
                          interner,
                          (id, l) -> {
                            made.computeIfAbsent(l, x -> new AtomicInteger()).incrementAndGet();
                            return newSeries(id, l);
                          }));
                }
                return got;
              }));
    }
    start.countDown();
    Map<Labels, MemSeries> seen = new HashMap<>();
    for (Future<List<MemSeries>> f : results) {
      for (MemSeries s : f.get(60, TimeUnit.SECONDS)) {
        assertThat(seen.computeIfAbsent(s.labels, x -> s)).isSameAs(s);
      }
    }
    pool.shutdown();
    assertThat(seen).hasSize(sets);
    assertThat(made.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
    assertThat(t.size()).isEqualTo(sets);
  }

  @ParameterizedTest(name = "{0} used of {1} slots: over three quarters = {2}")
  @CsvSource({
    "48, 64, false",
    "49, 64, true",
    "0, 64, false",
    "768, 1024, false",
    "769, 1024, true"
  })
  void rebuildsPastThreeQuartersFull(int used, int slots, boolean over) {
    assertThat(SeriesTable.overLoaded(used, slots)).isEqualTo(over);
  }

  @ParameterizedTest(name = "{0} live series -> {1} slots")
  @CsvSource({"0, 64", "32, 64", "33, 128", "51402, 131072", "65536, 131072", "65537, 262144"})
  void aRebuiltTableIsAtMostHalfFull(int live, int slots) {
    assertThat(SeriesTable.capacityFor(live)).isEqualTo(slots);
  }
}
