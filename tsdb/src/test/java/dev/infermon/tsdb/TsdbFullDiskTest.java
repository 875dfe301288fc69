package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.StorageUnavailableException;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import dev.infermon.storage.testing.TmpfsMount;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A really full disk: the database on a 4 MiB tmpfs filled by another file. Skipped where a tmpfs
 * cannot be mounted (not root, or a container that forbids it); {@code WalFullDiskTest}, {@code
 * BlockWriterFullDiskTest} and {@code HeadTest} cover the same paths through {@code /dev/full}.
 */
class TsdbFullDiskTest {
  static final long RANGE = 10_000;
  static final int SERIES = 20;
  static final List<Matcher> ALL = List.of(Matcher.metricName("m"));

  @TempDir Path tmp;

  static Labels series(int i) {
    return Labels.of("__name__", "m", "i", Integer.toString(i));
  }

  @Test
  void aFullDiskRefusesCommitsWithTheCauseAndCompactionRecoversWithoutLeftovers() throws Exception {
    TmpfsMount disk;
    try {
      disk = TmpfsMount.mount(tmp.resolve("disk"), "4m");
    } catch (IOException e) {
      Assumptions.abort("a real full disk needs a tmpfs mount: " + e.getMessage());
      return;
    }
    try (disk) {
      Path data = disk.dir.resolve("data");
      TsdbOptions opts =
          TsdbOptions.defaults()
              .withBlockRange(Duration.ofMillis(RANGE))
              .withCompactionInterval(Duration.ofHours(1))
              .withRetentionTime(Duration.ZERO);
      long t0 = (System.currentTimeMillis() - 3_600_000) / RANGE * RANGE;
      Map<Labels, List<Sample>> acked = new HashMap<>();
      try (Tsdb db = Tsdb.open(data, opts)) {
        for (long t = t0; t < t0 + 15_000; t += 1000) {
          commit(db, acked, t, SERIES);
        }
        Path spare = disk.dir.resolve("spare");
        Files.write(spare, new byte[4096]);
        fill(disk.dir.resolve("filler"));

        // A small commit that makes the head compactable: the compaction it starts cannot write.
        try {
          commit(db, acked, t0 + 20_000, 1);
        } catch (StorageUnavailableException e) {
          Files.delete(spare);
          commit(db, acked, t0 + 20_000, 1);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (db.writeFailures().compactions() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(db.writeFailures().compactions()).as("compaction failed").isPositive();

        Appender app = db.appender();
        for (int i = 0; i < 1000; i++) {
          app.append(Labels.of("__name__", "m", "i", "big" + i), t0 + 21_000, i);
        }
        assertThatThrownBy(app::commit)
            .isInstanceOf(StorageUnavailableException.class)
            .hasMessageStartingWith("write-ahead log: cannot write " + data.resolve("wal"))
            .hasMessageEndingWith(": No space left on device");
        app.rollback(); // nothing to roll back any more, and no "already committed" either
        assertThat(db.writeFailures().walWrites()).isPositive();
        assertThat(db.writeFailures().noSpace()).isGreaterThanOrEqualTo(2);

        Files.delete(disk.dir.resolve("filler"));
        db.compact();
        assertThat(db.blocks()).as("the compaction succeeded once there was room").isNotEmpty();
        assertThat(leftovers(data)).as("nothing left of the failed attempts").isEmpty();
        assertThat(readAll(db)).isEqualTo(acked);
      }
      try (Tsdb db = Tsdb.open(data, opts)) {
        assertThat(readAll(db)).as("after a restart").isEqualTo(acked);
      }
    }
  }

  private static void commit(Tsdb db, Map<Labels, List<Sample>> acked, long t, int n) {
    Appender app = db.appender();
    for (int i = 0; i < n; i++) {
      app.append(series(i), t, t / 1000.0 + i);
    }
    app.commit();
    for (int i = 0; i < n; i++) {
      acked.computeIfAbsent(series(i), k -> new ArrayList<>()).add(Sample.of(t, t / 1000.0 + i));
    }
  }

  /** Writes to {@code file} until the file system is full. */
  private static void fill(Path file) throws IOException {
    byte[] b = new byte[4096];
    try (OutputStream out = Files.newOutputStream(file)) {
      while (true) {
        out.write(b);
        out.flush();
      }
    } catch (IOException e) {
      if (!StorageUnavailableException.isNoSpace(e)) {
        throw e;
      }
    }
  }

  private static List<Path> leftovers(Path data) throws IOException {
    try (Stream<Path> s = Files.walk(data)) {
      return s.filter(
              p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".tmp-for-creation")
                    || n.endsWith(".tmp")
                    || n.endsWith(".repair");
              })
          .toList();
    }
  }

  private static Map<Labels, List<Sample>> readAll(Tsdb db) {
    try (Querier q = db.querier()) {
      return Samples.readAll(q.select(true, Long.MIN_VALUE, Long.MAX_VALUE, ALL));
    }
  }
}
