package dev.infermon.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.model.value.StaleNaN;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FanoutTest {
  private static final Labels A = Labels.of("__name__", "up", "pod", "a");

  /** A primary that records commits, rejects negative timestamps and can fail its commit. */
  private static final class Primary implements Storage {
    final List<String> committed = new ArrayList<>();
    boolean failCommit;
    boolean closed;

    @Override
    public Appender appender() {
      List<String> pending = new ArrayList<>();
      return new Appender() {
        @Override
        public long append(long ref, Labels labels, long t, double v) {
          if (t < 0) {
            throw new OutOfBoundsException("t=" + t);
          }
          pending.add(labels + "@" + t);
          return 1;
        }

        @Override
        public void commit() {
          if (failCommit) {
            throw new StorageException("disk full");
          }
          committed.addAll(pending);
        }

        @Override
        public void rollback() {
          pending.clear();
        }
      };
    }

    @Override
    public Querier querier() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, List<Metadata>> metadata(String metric) {
      return Map.of();
    }

    @Override
    public long startTime() {
      return 7;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  @Test
  void sinksSeeEveryAcceptedSampleAfterThePrimaryCommitted() {
    Primary primary = new Primary();
    List<CommittedBatch> seen = new ArrayList<>();
    Fanout fanout =
        Fanout.of(
            primary,
            List.of(
                b -> {
                  assertThat(primary.committed).as("primary committed first").isNotEmpty();
                  seen.add(b);
                }));

    Appender app = fanout.appender();
    app.append(A, 1000, 1);
    assertThatThrownBy(() -> app.append(A, -1, 2)).isInstanceOf(OutOfBoundsException.class);
    app.append(A, 2000, StaleNaN.VALUE);
    Metadata m = new Metadata(MetricType.GAUGE, "h", "");
    app.updateMetadata(A, m);
    app.commit();

    assertThat(seen).hasSize(1);
    CommittedBatch b = seen.get(0);
    assertThat(b.size()).isEqualTo(2);
    assertThat(List.of(b.timestamp(0), b.timestamp(1))).containsExactly(1000L, 2000L);
    assertThat(b.labels(1)).isEqualTo(A);
    assertThat(StaleNaN.is(b.value(1))).isTrue();
    assertThat(b.metadata()).containsExactly(new CommittedBatch.MetadataUpdate(A, m));
    assertThatThrownBy(() -> b.value(2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void aThrowingSinkIsCountedAndCannotFailTheCommitOrStarveOtherSinks() {
    Primary primary = new Primary();
    List<CommittedBatch> seen = new ArrayList<>();
    Fanout fanout =
        Fanout.of(
            primary,
            List.of(
                b -> {
                  throw new IllegalStateException("queue closed");
                },
                seen::add));

    Appender app = fanout.appender();
    app.append(A, 1000, 1);
    app.commit();

    assertThat(primary.committed).containsExactly(A + "@1000");
    assertThat(seen).hasSize(1);
    assertThat(fanout.sinkFailures()).isEqualTo(1);
  }

  @Test
  void nothingReachesSinksOnRollbackOrFailedCommit() {
    Primary primary = new Primary();
    List<CommittedBatch> seen = new ArrayList<>();
    Fanout fanout = Fanout.of(primary, List.of(seen::add));

    Appender rolledBack = fanout.appender();
    rolledBack.append(A, 1000, 1);
    rolledBack.rollback();
    primary.failCommit = true;
    Appender failing = fanout.appender();
    failing.append(A, 1000, 1);
    assertThatThrownBy(failing::commit).hasMessage("disk full");

    assertThat(seen).isEmpty();
  }

  @Test
  void readsAndLifecycleArePrimarys() {
    Primary primary = new Primary();
    Fanout fanout = Fanout.of(primary, List.of(b -> {}));

    assertThat(fanout.startTime()).isEqualTo(7);
    fanout.close();
    assertThat(primary.closed).isTrue();
    assertThatThrownBy(() -> Fanout.of(primary, java.util.Arrays.asList((SampleSink) null)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
