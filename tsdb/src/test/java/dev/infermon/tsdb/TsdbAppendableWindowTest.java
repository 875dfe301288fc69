package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.storage.OutOfBoundsException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Tsdb#appendableMinTime}: the bound the dashboard's results cache relies on. No sample
 * before it can be added, not even to a new series, so query results over older samples are final.
 */
class TsdbAppendableWindowTest {
  private static final long T = 1_780_000_000_000L;
  private static final long HOUR = 3_600_000;

  @TempDir Path dir;

  @Test
  void nothingBeforeTheWindowIsAcceptedAnyMore() throws Exception {
    try (Tsdb db = Tsdb.open(dir, TsdbOptions.defaults())) {
      assertThat(db.appendableMinTime()).isEqualTo(Long.MIN_VALUE);
      Appender a = db.appender();
      a.append(0, Labels.of("__name__", "x", "pod", "a"), T, 1);
      a.commit();
      // half the default two-hour chunk range before the newest sample
      assertThat(db.appendableMinTime()).isEqualTo(T - HOUR);

      Appender late = db.appender();
      late.append(0, Labels.of("__name__", "x", "pod", "new"), T - HOUR, 2); // at the bound: in
      assertThatThrownBy(
              () -> late.append(0, Labels.of("__name__", "x", "pod", "older"), T - HOUR - 1, 3))
          .isInstanceOf(OutOfBoundsException.class);
      late.commit();

      Appender next = db.appender();
      next.append(0, Labels.of("__name__", "x", "pod", "a"), T + HOUR, 4);
      next.commit();
      assertThat(db.appendableMinTime()).isEqualTo(T); // it only moves forward
    }
  }
}
