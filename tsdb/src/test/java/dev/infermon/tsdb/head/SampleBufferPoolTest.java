package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import org.junit.jupiter.api.Test;

/** Appenders hand their grown buffers on, emptied, and only within the pool's bounds. */
class SampleBufferPoolTest {
  @Test
  void aFinishedAppendersBufferIsTakenByTheNextOneEmpty() {
    Head head = Head.create();
    Appender a = head.appender();
    for (int i = 0; i < 1000; i++) {
      a.append(0, Labels.of("__name__", "m", "i", Integer.toString(i)), 1000, i);
    }
    a.commit();
    assertThat(head.sampleBuffers.kept()).isEqualTo(1);

    Appender b = head.appender();
    assertThat(head.sampleBuffers.kept()).isZero();
    b.append(0, Labels.of("__name__", "m", "i", "0"), 2000, 7);
    b.rollback();
    assertThat(head.sampleBuffers.kept()).isEqualTo(1);

    SeriesSampleBuffer reused = head.sampleBuffers.take();
    assertThat(reused.size).isZero();
    assertThat(reused.touchedCount).isZero();
    assertThat(reused.capacity()).isGreaterThanOrEqualTo(1000); // grown once, kept
    assertThat(reused.series).containsOnlyNulls();
    assertThat(reused.latest(1)).isEqualTo(-2); // the id map was emptied too
  }

  @Test
  void boundedInCountAndSize() {
    SampleBufferPool pool = new SampleBufferPool();
    for (int i = 0; i < SampleBufferPool.SLOTS + 3; i++) {
      pool.give(new SeriesSampleBuffer());
    }
    assertThat(pool.kept()).isEqualTo(SampleBufferPool.SLOTS);

    SampleBufferPool other = new SampleBufferPool();
    SeriesSampleBuffer huge = new SeriesSampleBuffer();
    Head head = Head.create();
    Appender a = head.appender();
    a.append(0, Labels.of("__name__", "m"), 1, 1);
    a.rollback();
    for (int i = 0; i <= SampleBufferPool.MAX_KEPT_SAMPLES; i++) {
      huge.add(head.seriesById(1), i, i);
    }
    other.give(huge);
    assertThat(other.kept()).isZero();
  }
}
