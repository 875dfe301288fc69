package dev.infermon.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reference storage the engine is tested against behaves like Prometheus's head. */
class MemoryStorageTest {
  private static final Labels L = Labels.of("__name__", "m", "a", "1");

  @Test
  void rejectsOutOfOrderAndDuplicatesButAcceptsRepeats() {
    MemoryStorage s = new MemoryStorage();
    Appender app = s.appender();
    app.append(L, 10, 1);
    app.append(L, 10, 1); // same value again: ignored
    assertThatThrownBy(() -> app.append(L, 10, 2)).isInstanceOf(DuplicateSampleException.class);
    assertThatThrownBy(() -> app.append(L, 5, 1)).isInstanceOf(OutOfOrderSampleException.class);
    app.commit();
    try (Querier q = s.querier()) {
      SeriesSet set = q.select(true, 0, 100, List.of(Matcher.metricName("m")));
      assertThat(set.next()).isTrue();
      assertThat(set.at().labels()).isEqualTo(L);
      assertThat(set.next()).isFalse();
    }
  }

  @Test
  void uncommittedSamplesAreInvisible() {
    MemoryStorage s = new MemoryStorage();
    Appender app = s.appender();
    app.append(L, 10, 1);
    try (Querier q = s.querier()) {
      assertThat(q.labelNames(0, 100, List.of())).isEmpty();
    }
    app.rollback();
    assertThat(s.startTime()).isEqualTo(Long.MAX_VALUE);
  }
}
