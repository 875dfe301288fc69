package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.head.Head;
import dev.infermon.tsdb.head.HeadOptions;
import org.junit.jupiter.api.Test;

/**
 * The replay sink answers from the head's own lookup: a sample of a reference no series record
 * named yet is refused (the replay holds it back), also beyond the future window, and taken once
 * the record came, under an alias too; a sample beyond the window is then dropped and counted.
 */
class HeadReplaySinkTest {
  private static final long NOW = 1_700_000_000_000L;
  private static final Labels A = Labels.of("__name__", "up", "pod", "a");

  @Test
  void refusesUnknownReferencesAndTakesKnownOnes() {
    Head head = Head.create(HeadOptions.defaults().withFutureWindow(60_000, () -> NOW));
    HeadReplaySink sink = new HeadReplaySink(head);

    assertThat(sink.sample(3, NOW, 1)).as("no record yet").isFalse();
    assertThat(sink.sample(3, NOW + 3_600_000, 1)).as("no record yet, beyond the window").isFalse();
    sink.series(3, A);
    sink.series(5, A); // the same labels again: an alias
    assertThat(sink.sample(3, NOW, 1)).isTrue();
    assertThat(sink.sample(5, NOW + 1_000, 2)).isTrue();
    assertThat(sink.sample(5, NOW + 500, 3)).as("out of order: taken, dropped").isTrue();
    assertThat(sink.sample(3, NOW + 3_600_000, 1)).as("beyond the window: dropped").isTrue();
    assertThat(sink.future()).isEqualTo(1);
    assertThat(head.stats().series()).isEqualTo(1);
    assertThat(head.maxTime()).isEqualTo(NOW + 1_000);
    head.close();
  }
}
