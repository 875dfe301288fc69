package dev.infermon.storage.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.Storage;
import dev.infermon.storage.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Write-path conformance of a {@link Storage}: transaction visibility, rejection of out-of-order
 * and duplicate samples with named errors, staleness markers, metadata and concurrent appenders.
 * Each test gets a fresh, empty storage from {@link #newStorage()}.
 *
 * <p>Optional features are declared by overriding hooks; a test that needs an undeclared feature is
 * skipped, not failed.
 */
public abstract class AppendableStorageConformance {
  /** A fresh, empty storage; closed after each test. */
  protected abstract Storage newStorage() throws Exception;

  /**
   * How many samples {@code storage} has rejected for {@code reason} so far, or -1 when it does not
   * count (the count checks are then skipped).
   */
  protected long rejectedCount(Storage storage, Class<? extends StorageException> reason) {
    return -1;
  }

  /** Whether the storage keeps metadata given to {@link Appender#updateMetadata}. */
  protected boolean keepsMetadata() {
    return true;
  }

  protected Storage storage;

  static final Labels A = Labels.of("__name__", "up", "pod", "a");
  static final Labels B = Labels.of("__name__", "up", "pod", "b");
  static final List<Matcher> UP = List.of(Matcher.metricName("up"));

  @BeforeEach
  final void openStorage() throws Exception {
    storage = newStorage();
  }

  @AfterEach
  final void closeStorage() {
    storage.close();
  }

  private Map<Labels, List<Sample>> readAll(List<Matcher> matchers) {
    try (Querier q = storage.querier()) {
      return Samples.readAll(q.select(true, Long.MIN_VALUE, Long.MAX_VALUE, matchers));
    }
  }

  private List<Sample> read(Labels labels) {
    List<Matcher> ms = new ArrayList<>();
    labels.forEach((n, v) -> ms.add(Matcher.equal(n, v)));
    return readAll(ms).getOrDefault(labels, List.of());
  }

  @Test
  void samplesAreInvisibleUntilCommitThenVisibleToNewQueriers() {
    Appender app = storage.appender();
    app.append(A, 1000, 1);
    app.append(B, 1000, 2);

    assertThat(readAll(UP)).isEmpty();
    app.commit();

    assertThat(readAll(UP))
        .containsExactly(
            Map.entry(A, List.of(Sample.of(1000, 1))), Map.entry(B, List.of(Sample.of(1000, 2))));
  }

  @Test
  void rollbackDiscardsEverySampleOfTheTransaction() {
    commit(A, 1000, 1);
    Appender app = storage.appender();
    app.append(A, 2000, 2);
    app.append(B, 2000, 2);
    app.rollback();

    assertThat(readAll(UP)).containsExactly(Map.entry(A, List.of(Sample.of(1000, 1))));
    try (Querier q = storage.querier()) {
      assertThat(q.labelValues("pod", Long.MIN_VALUE, Long.MAX_VALUE, List.of()))
          .as("a rolled-back series has no data, so no label values")
          .containsExactly("a");
    }
  }

  @Test
  void referencesSpeedUpLaterAppendsAndWrongOnesAreTolerated() {
    Appender app = storage.appender();
    long refA = app.append(0, A, 1000, 1);
    long refB = app.append(0, B, 1000, 2);
    app.commit();

    app = storage.appender();
    assertThat(app.append(refA, A, 2000, 3)).isEqualTo(refA);
    app.append(refA, B, 2000, 4); // the labels decide, not the reference
    app.append(12345678, A, 3000, 5);
    app.commit();

    assertThat(refA).isNotEqualTo(refB);
    assertThat(read(A)).containsExactly(Sample.of(1000, 1), Sample.of(2000, 3), Sample.of(3000, 5));
    assertThat(read(B)).containsExactly(Sample.of(1000, 2), Sample.of(2000, 4));
  }

  @Test
  void outOfOrderSampleIsRejectedAndTheTransactionGoesOn() {
    commit(A, 2000, 1);
    long before = rejectedCount(storage, OutOfOrderSampleException.class);

    Appender app = storage.appender();
    assertThatThrownBy(() -> app.append(A, 1000, 9))
        .isInstanceOf(OutOfOrderSampleException.class)
        .hasMessageStartingWith(OutOfOrderSampleException.MESSAGE);
    app.append(A, 3000, 3);
    assertThatThrownBy(() -> app.append(A, 2500, 9))
        .as("out of order against a sample of the same transaction")
        .isInstanceOf(OutOfOrderSampleException.class);
    app.commit();

    assertThat(read(A)).containsExactly(Sample.of(2000, 1), Sample.of(3000, 3));
    if (before >= 0) {
      assertThat(rejectedCount(storage, OutOfOrderSampleException.class)).isEqualTo(before + 2);
    }
  }

  @Test
  void duplicateTimestampWithAnotherValueIsRejectedWithTheSameValueAccepted() {
    commit(A, 2000, 1);
    long before = rejectedCount(storage, DuplicateSampleException.class);

    Appender app = storage.appender();
    assertThatThrownBy(() -> app.append(A, 2000, 2))
        .isInstanceOf(DuplicateSampleException.class)
        .hasMessageStartingWith(DuplicateSampleException.MESSAGE);
    app.append(A, 2000, 1); // identical: silently accepted, stored once
    app.append(A, 2500, 5);
    assertThatThrownBy(() -> app.append(A, 2500, 6)).isInstanceOf(DuplicateSampleException.class);
    app.commit();

    assertThat(read(A)).containsExactly(Sample.of(2000, 1), Sample.of(2500, 5));
    if (before >= 0) {
      assertThat(rejectedCount(storage, DuplicateSampleException.class)).isEqualTo(before + 2);
    }
  }

  @Test
  void duplicateOfAStaleMarkerWithAnOrdinaryNanIsADifferentValue() {
    commit(A, 2000, StaleNaN.VALUE);

    Appender app = storage.appender();
    assertThatThrownBy(() -> app.append(A, 2000, Double.NaN))
        .isInstanceOf(DuplicateSampleException.class);
    app.rollback();
  }

  @Test
  void stalenessMarkersAreStoredAsSuchAndOrdinaryNanStaysAValue() {
    Appender app = storage.appender();
    app.append(A, 1000, Double.NaN);
    app.append(A, 2000, StaleNaN.VALUE);
    app.append(A, 3000, 4);
    app.append(A, 4000, Double.NaN);
    app.commit();

    List<Sample> got = read(A);

    assertThat(got)
        .containsExactly(
            Sample.of(1000, Double.NaN),
            Sample.stale(2000),
            Sample.of(3000, 4),
            Sample.of(4000, Double.NaN));
    assertThat(got).extracting(s -> StaleNaN.is(s.v())).containsExactly(false, true, false, false);
  }

  @Test
  void rangesAreClosedAtBothEnds() {
    Appender app = storage.appender();
    for (int i = 1; i <= 5; i++) {
      app.append(A, i * 1000L, i);
    }
    app.commit();

    try (Querier q = storage.querier()) {
      assertThat(Samples.readAll(q.select(true, 2000, 4000, UP)).get(A))
          .extracting(Sample::t)
          .containsExactly(2000L, 3000L, 4000L);
      assertThat(Samples.readAll(q.select(true, 2001, 2999, UP))).isEmpty();
      assertThat(Samples.readAll(q.select(true, 5000, 5000, UP)).get(A))
          .containsExactly(Sample.of(5000, 5));
    }
  }

  @Test
  void sortedSelectComesInLabelOrder() {
    Appender app = storage.appender();
    List<Labels> all = new ArrayList<>();
    for (int i = 30; i > 0; i--) {
      Labels l = Labels.of("__name__", "m", "i", Integer.toString(i), "x", i % 3 == 0 ? "y" : "z");
      all.add(l);
      app.append(l, 1000, i);
    }
    app.commit();
    all.sort(null);

    try (Querier q = storage.querier()) {
      assertThat(Samples.labelsOf(q.select(true, 0, 2000, List.of(Matcher.metricName("m")))))
          .containsExactlyElementsOf(all);
    }
  }

  @Test
  void seekAcrossManySamplesNeverGoesBack() {
    Appender app = storage.appender();
    for (int i = 0; i < 1000; i++) {
      app.append(A, i * 15_000L, i);
    }
    app.commit();

    try (Querier q = storage.querier()) {
      SeriesSet set = q.select(true, 0, Long.MAX_VALUE, UP);
      assertThat(set.next()).isTrue();
      SampleIterator it = set.at().iterator();
      assertThat(it.seek(15_000L * 500 - 1)).isTrue();
      assertThat(it.timestamp()).isEqualTo(15_000L * 500);
      assertThat(it.seek(0)).isTrue();
      assertThat(it.timestamp()).isEqualTo(15_000L * 500);
      assertThat(it.next()).isTrue();
      assertThat(it.value()).isEqualTo(501);
      assertThat(it.seek(15_000L * 999)).isTrue();
      assertThat(it.next()).isFalse();
      assertThat(Samples.drain(set.at().iterator())).hasSize(1000);
    }
  }

  @Test
  void metadataIsKeptPerFamilyOnCommitOnly() {
    Assumptions.assumeTrue(keepsMetadata(), "storage does not keep metadata");
    Metadata m = new Metadata(MetricType.GAUGE, "Whether the target is up.", "");
    Appender app = storage.appender();
    app.append(A, 1000, 1);
    app.updateMetadata(A, m);
    app.updateMetadata(B, m);
    assertThat(storage.metadata("up")).isEmpty();
    app.commit();

    Appender rolledBack = storage.appender();
    rolledBack.updateMetadata(
        Labels.of("__name__", "other"), new Metadata(MetricType.COUNTER, "x", ""));
    rolledBack.rollback();

    assertThat(storage.metadata("up")).containsExactly(Map.entry("up", List.of(m)));
    assertThat(storage.metadata(null)).containsOnlyKeys("up");
  }

  @Test
  void concurrentAppendersAndReadersLoseNothingAndInventNothing() throws Exception {
    int writers = 4;
    int seriesPerWriter = 50;
    int rounds = 60;
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    try {
      List<Callable<Integer>> tasks = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String writer = "w" + w;
        tasks.add(
            () -> {
              long[] refs = new long[seriesPerWriter];
              for (int r = 0; r < rounds; r++) {
                Appender app = storage.appender();
                for (int s = 0; s < seriesPerWriter; s++) {
                  refs[s] = app.append(refs[s], labels(writer, s), r * 1000L, r);
                }
                app.commit();
              }
              return rounds;
            });
      }
      tasks.add(
          () -> {
            // Readers see, per series, a prefix of 0, 1, 2, ... that only grows.
            int checks = 0;
            for (int i = 0; i < 40; i++) {
              for (Map.Entry<Labels, List<Sample>> e :
                  readAll(List.of(Matcher.metricName("stress"))).entrySet()) {
                List<Sample> got = e.getValue();
                for (int k = 0; k < got.size(); k++) {
                  if (!got.get(k).equals(Sample.of(k * 1000L, k))) {
                    throw new AssertionError(e.getKey() + " sample " + k + " is " + got.get(k));
                  }
                }
                checks++;
              }
            }
            return checks;
          });
      List<Future<Integer>> results = pool.invokeAll(tasks, 60, TimeUnit.SECONDS);
      for (Future<Integer> f : results) {
        f.get(1, TimeUnit.SECONDS); // throws if a task failed or was cancelled on timeout
      }
    } finally {
      pool.shutdownNow();
    }

    Map<Labels, List<Sample>> all = readAll(List.of(Matcher.metricName("stress")));
    assertThat(all).hasSize(writers * seriesPerWriter);
    List<Sample> expected = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      expected.add(Sample.of(r * 1000L, r));
    }
    assertThat(all.values()).allSatisfy(s -> assertThat(s).isEqualTo(expected));
  }

  private static Labels labels(String writer, int s) {
    return Labels.of("__name__", "stress", "writer", writer, "series", Integer.toString(s));
  }

  private void commit(Labels labels, long t, double v) {
    Appender app = storage.appender();
    app.append(labels, t, v);
    app.commit();
  }
}
