package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Appender;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.StorageUnavailableException;
import dev.infermon.storage.TooFarInFutureException;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import dev.infermon.tsdb.chunkenc.XorIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeadTest {
  private static final long H = 3_600_000L;
  private static final Labels A = Labels.of("__name__", "up", "pod", "a");
  private static final Labels B = Labels.of("__name__", "up", "pod", "b");

  private final Head head = Head.create();

  @Test
  void samplesBeforeTheAppendableWindowAreOutOfBounds() {
    commit(A, 10 * H, 1);

    Appender app = head.appender();
    assertThatThrownBy(() -> app.append(B, 9 * H - 1, 1))
        .as("half a chunk range (1 h) before the newest sample")
        .isInstanceOf(OutOfBoundsException.class)
        .hasMessageStartingWith(OutOfBoundsException.MESSAGE);
    app.append(B, 9 * H, 1);
    app.commit();

    head.setMinValidTime(10 * H);
    head.setMinValidTime(0); // never lowers
    Appender later = head.appender();
    assertThatThrownBy(() -> later.append(B, 10 * H - 1, 2))
        .isInstanceOf(OutOfBoundsException.class);
    later.rollback();
    assertThat(head.stats().outOfBounds()).isEqualTo(2);
    assertThat(head.minValidTime()).isEqualTo(10 * H);
  }

  @Test
  void samplesBeyondTheFutureWindowAreRefusedAndNeverMoveTheHeadsTimeRange() {
    long now = 1_700_000_000_000L;
    Head h = Head.create(HeadOptions.defaults().withFutureWindow(10 * 60_000L, () -> now));
    Appender app = h.appender();
    app.append(A, now, 1);
    app.append(A, now + 10 * 60_000L, 2); // at the limit: accepted
    assertThatThrownBy(() -> app.append(B, now + 30 * 24 * H, 3))
        .isInstanceOf(TooFarInFutureException.class)
        .isInstanceOf(OutOfBoundsException.class)
        .hasMessageStartingWith("out of bounds: timestamp is too far in the future")
        .hasMessageContaining("t=" + (now + 30 * 24 * H) + " (2023-12-14T22:13:20Z)")
        .hasMessageContaining("later than t=" + (now + 10 * 60_000L))
        .hasMessageContaining("600 s")
        .hasMessageContaining(B.toString());
    app.commit();
    assertThat(h.maxTime()).isEqualTo(now + 10 * 60_000L);
    assertThat(h.stats().tooFarInFuture()).isEqualTo(1);
    assertThat(h.stats().outOfBounds()).isZero();

    Appender next = h.appender();
    next.append(B, now + 1000, 4);
    next.commit();
    assertThat(readFrom(h, B)).containsExactly(Sample.of(now + 1000, 4));
  }

  @Test
  void storedLabelsAreTheHeadsOwnInstanceForItsSeriesOnly() {
    Appender app = head.appender();
    Labels mine = Labels.fromMap(A.toMap());
    long ref = app.append(0, mine, 1000, 1);
    Labels stored = app.storedLabels(ref, mine);
    assertThat(stored).isEqualTo(A).isNotSameAs(mine);
    assertThat(app.storedLabels(ref, stored)).isSameAs(stored);
    assertThat(app.storedLabels(ref, B)).as("other labels: the caller's").isSameAs(B);
    assertThat(app.storedLabels(ref + 1000, mine)).as("unknown ref").isSameAs(mine);
    assertThat(app.append(ref, stored, 2000, 2)).isEqualTo(ref);
    app.commit();
  }

  @Test
  void aCallerThatAdoptedTheStoredLabelsCanLetItsOwnCopyGo() throws InterruptedException {
    Appender app = head.appender();
    Labels mine = Labels.fromMap(A.toMap());
    long ref = app.append(0, mine, 1000, 1);
    app.append(ref, mine, 2000, 2); // by reference with the caller's copy: remembered as an alias
    Labels stored = app.storedLabels(ref, mine);
    app.commit();
    java.lang.ref.WeakReference<Labels> copy = new java.lang.ref.WeakReference<>(mine);
    mine = null;
    for (int i = 0; i < 50 && copy.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(copy.get()).as("the head no longer holds the caller's copy").isNull();
    assertThat(stored).isEqualTo(A);
  }

  @Test
  void completedChunksLiveInSegmentFilesWhenTheHeadHasADirectory(@TempDir Path dir)
      throws IOException {
    Head h = Head.create(HeadOptions.defaults().withChunkDir(dir));
    List<Sample> want = new ArrayList<>();
    Appender app = h.appender();
    for (int i = 0; i < 1200; i++) { // 15 s scrapes for 5 h: about ten completed chunks
      app.append(A, i * 15_000L, Math.sin(i));
      want.add(Sample.of(i * 15_000L, Math.sin(i)));
    }
    app.commit();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.count()).as("a segment file").isEqualTo(1);
    }
    assertThat(h.chunkStore().bytes()).isGreaterThan(1000);
    assertThat(readFrom(h, A)).isEqualTo(want);

    h.truncateBefore(3 * H);
    assertThat(readFrom(h, A)).isEqualTo(want.subList(720, 1200));
    h.close();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.count()).as("deleted on close").isZero();
    }
  }

  @Test
  void anEmptyHeadAcceptsAnyTime() {
    commit(A, -5, 1);
    assertThat(read(A)).containsExactly(Sample.of(-5, 1));
  }

  @Test
  void chunksHoldAbout120SamplesAndNeverCrossAChunkRangeBoundary() {
    // 15 s scrapes for 5 h: 1200 samples.
    Appender app = head.appender();
    for (int i = 0; i < 1200; i++) {
      app.append(A, i * 15_000L, i);
    }
    app.commit();

    List<ChunkExport.Chunk> chunks = new ArrayList<>();
    head.exportChunks(Long.MIN_VALUE, Long.MAX_VALUE, (ref, l, cs) -> chunks.addAll(cs));
    int total = 0;
    for (ChunkExport.Chunk c : chunks) {
      int n = XorIterator.over(c.bytes(), 0, c.bytes().length).numSamples();
      total += n;
      assertThat(Math.floorDiv(c.minTime(), 2 * H)).isEqualTo(Math.floorDiv(c.maxTime(), 2 * H));
      assertThat(n).isBetween(1, 240);
    }
    assertThat(total).isEqualTo(1200);
    // A full 2 h range at 15 s is 480 samples: four chunks of 120.
    assertThat(chunks.subList(0, 4))
        .extracting(c -> XorIterator.over(c.bytes(), 0, c.bytes().length).numSamples())
        .containsExactly(120, 120, 120, 120);
  }

  @Test
  void aSampleThatLostARaceWithAnotherTransactionIsDroppedAndCounted() {
    Appender first = head.appender();
    Appender second = head.appender();
    first.append(A, 2000, 2);
    second.append(A, 1000, 1); // fine against the committed state when appended
    first.commit();
    second.commit();

    assertThat(read(A)).containsExactly(Sample.of(2000, 2));
    assertThat(head.stats().outOfOrder()).isEqualTo(1);
    assertThat(head.stats().samplesAppended()).isEqualTo(1);
  }

  @Test
  void anAppenderCannotBeUsedAfterCommitOrRollback() {
    Appender app = head.appender();
    app.commit();
    assertThatThrownBy(() -> app.append(A, 1, 1)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(app::rollback).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> head.appender().append(Labels.EMPTY, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void truncationDropsOldChunksThenEmptySeriesAndTheirIndexEntries() {
    Appender app = head.appender();
    long refA = app.append(A, 0, 1);
    for (int i = 0; i < 960; i++) { // B: 4 h at 15 s
      app.append(B, i * 15_000L, i);
    }
    app.commit();
    int stringsBefore = head.internedStrings();

    int removed = head.truncateBefore(2 * H);

    assertThat(removed).isEqualTo(1);
    assertThat(head.stats().series()).isEqualTo(1);
    assertThat(head.minTime()).isEqualTo(2 * H);
    assertThat(head.internedStrings()).as("\"a\" is released").isEqualTo(stringsBefore - 1);
    assertThat(read(B)).first().isEqualTo(Sample.of(2 * H, 480));
    try (Querier q = head.querier()) {
      assertThat(q.labelValues("pod", Long.MIN_VALUE, Long.MAX_VALUE, List.of()))
          .containsExactly("b");
    }
    // The old reference is stale now; the labels decide and a new series is made.
    Appender again = head.appender();
    assertThat(again.append(refA, A, 3 * H, 5)).isNotEqualTo(refA);
    again.commit();
    assertThat(read(A)).containsExactly(Sample.of(3 * H, 5));
  }

  @Test
  void truncationSparesSeriesThatAnOpenTransactionAppendsTo() {
    commit(A, 0, 1);
    Appender open = head.appender();
    open.append(A, 2 * H, 2);

    head.truncateBefore(H);
    open.commit();

    assertThat(read(A)).containsExactly(Sample.of(2 * H, 2));
  }

  @Test
  void theLogSeesSeriesFirstAndCommitsBeforeSamplesAreVisible() {
    List<String> events = new ArrayList<>();
    Head[] self = new Head[1];
    HeadLog log =
        new HeadLog() {
          @Override
          public void logSeries(long ref, Labels labels) {
            events.add("series " + ref + " " + labels);
          }

          @Override
          public void logSamples(long[] refs, long[] ts, double[] vs, int n) {
            for (int i = 0; i < n; i++) {
              events.add("sample " + refs[i] + " " + ts[i] + " " + StaleNaN.is(vs[i]));
            }
          }

          @Override
          public void commit() {
            events.add("commit visible=" + !readFrom(self[0], A).isEmpty());
          }
        };
    self[0] = Head.create(HeadOptions.defaults().withLog(log));
    Appender app = self[0].appender();
    long ref = app.append(A, 1000, StaleNaN.VALUE);
    app.commit();

    assertThat(events)
        .containsExactly(
            "series " + ref + " " + A, "sample " + ref + " 1000 true", "commit visible=false");
    assertThat(readFrom(self[0], A)).containsExactly(Sample.stale(1000));
  }

  @Test
  void aFailingLogFailsTheCommitWithItsCauseAndARollbackAfterItDoesNothing() throws IOException {
    // The kernel's own ENOSPC, as a full disk gives it to the write-ahead log.
    IOException full;
    try (FileChannel devFull = FileChannel.open(Path.of("/dev/full"), StandardOpenOption.WRITE)) {
      devFull.write(ByteBuffer.wrap(new byte[] {1}));
      throw new AssertionError("/dev/full accepted a write");
    } catch (IOException e) {
      full = e;
    }
    StorageUnavailableException cause =
        new StorageUnavailableException(
            "write-ahead log: cannot write wal/00000003: " + full.getMessage(), full);
    HeadLog failing =
        new HeadLog() {
          @Override
          public void logSeries(long ref, Labels labels) {}

          @Override
          public void logSamples(long[] refs, long[] ts, double[] vs, int n) {}

          @Override
          public void commit() {
            throw cause;
          }
        };
    Head h = Head.create(HeadOptions.defaults().withLog(failing));
    Appender app = h.appender();
    app.append(A, 1000, 1);

    assertThatThrownBy(app::commit).isSameAs(cause).hasMessageContaining("No space left on device");
    app.rollback(); // what a caller's error handling does: not "already committed or rolled back"
    assertThatThrownBy(app::commit).isInstanceOf(IllegalStateException.class);
    assertThat(cause.noSpace()).isTrue();
    assertThat(readFrom(h, A)).isEmpty();
    assertThat(h.truncateBefore(0)).as("the series is no longer pending").isEqualTo(1);
  }

  @Test
  void replayRestoresSeriesUnderTheirReferencesWithoutLogging() {
    List<Long> logged = new ArrayList<>();
    HeadLog log =
        new HeadLog() {
          @Override
          public void logSeries(long ref, Labels labels) {
            logged.add(ref);
          }

          @Override
          public void logSamples(long[] refs, long[] ts, double[] vs, int n) {}

          @Override
          public void commit() {}
        };
    Head h = Head.create(HeadOptions.defaults().withLog(log));

    assertThat(h.replaySeries(7, A)).isEqualTo(7);
    assertThat(h.replaySeries(9, A)).as("same labels again: an alias").isEqualTo(7);
    assertThat(h.replaySample(7, 1000, 1)).isEqualTo(Head.Replayed.APPENDED);
    assertThat(h.replaySample(9, 2000, 2)).isEqualTo(Head.Replayed.APPENDED);
    assertThat(h.replaySample(9, 1500, 9)).as("out of order").isEqualTo(Head.Replayed.DROPPED);
    assertThat(h.replaySample(8, 1000, 1))
        .as("unknown reference")
        .isEqualTo(Head.Replayed.NO_SERIES);
    assertThat(h.replayKnows(9)).as("an alias").isTrue();
    assertThat(h.replayKnows(8)).isFalse();
    h.endReplay();
    assertThatThrownBy(() -> h.replaySeries(7, B)).isInstanceOf(IllegalArgumentException.class);

    Appender app = h.appender();
    long refB = app.append(B, 3000, 3);
    assertThat(app.append(7, A, 3000, 3)).isEqualTo(7);
    app.commit();

    assertThat(refB).isGreaterThan(7);
    assertThat(logged).containsExactly(refB);
    assertThat(readFrom(h, A))
        .containsExactly(Sample.of(1000, 1), Sample.of(2000, 2), Sample.of(3000, 3));
    List<Long> refs = new ArrayList<>();
    h.forEachSeries((ref, labels) -> refs.add(ref));
    assertThat(refs).containsExactlyInAnyOrder(7L, refB);
  }

  @Test
  void exportReencodesChunksThatCrossTheRangeAndCopiesTheRest() {
    Appender app = head.appender();
    for (int i = 0; i < 600; i++) {
      app.append(A, i * 15_000L, i);
    }
    app.commit();

    List<Sample> got = new ArrayList<>();
    head.exportChunks(
        1_000_000,
        2 * H - 1,
        (ref, labels, chunks) -> {
          assertThat(labels).isEqualTo(A);
          for (ChunkExport.Chunk c : chunks) {
            got.addAll(Samples.drain(XorIterator.over(c.bytes(), 0, c.bytes().length)));
          }
        });

    assertThat(got).first().isEqualTo(Sample.of(1_005_000, 67));
    assertThat(got).last().isEqualTo(Sample.of(2 * H - 15_000, 479));
    assertThat(got).hasSize(479 - 67 + 1);
  }

  @Test
  void statsCountWhatHappened() {
    commit(A, 1000, 1);
    commit(B, 2000, 1);

    HeadStats s = head.stats();

    assertThat(s.series()).isEqualTo(2);
    assertThat(s.seriesCreated()).isEqualTo(2);
    assertThat(s.samplesAppended()).isEqualTo(2);
    assertThat(s.minTime()).isEqualTo(1000);
    assertThat(s.maxTime()).isEqualTo(2000);
    assertThat(head.startTime()).isEqualTo(1000);
  }

  private void commit(Labels l, long t, double v) {
    Appender app = head.appender();
    app.append(l, t, v);
    app.commit();
  }

  private List<Sample> read(Labels l) {
    return readFrom(head, l);
  }

  private static List<Sample> readFrom(Head h, Labels l) {
    try (Querier q = h.querier()) {
      Map<Labels, List<Sample>> all =
          Samples.readAll(
              q.select(
                  true,
                  Long.MIN_VALUE,
                  Long.MAX_VALUE,
                  List.of(Matcher.equal("pod", l.get("pod")))));
      return all.getOrDefault(l, List.of());
    }
  }
}
