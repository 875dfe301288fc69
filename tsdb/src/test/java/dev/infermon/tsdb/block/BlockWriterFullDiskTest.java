package dev.infermon.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.chunkenc.XorChunk;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A block written on a full disk (chunk files to {@code /dev/full}: the kernel's ENOSPC). */
class BlockWriterFullDiskTest {
  @TempDir Path dir;

  @Test
  void aBlockWhoseChunksCannotBeWrittenLeavesNoTemporaryDirectory() throws IOException {
    XorChunk c = XorChunk.create();
    Random r = new Random(1);
    for (int i = 0; i < 100; i++) {
      c.append(i * 1000L, r.nextDouble()); // about 8 bytes a sample, whichever way it is encoded
    }
    byte[] chunk = Arrays.copyOf(c.snapshotBuffer(), c.length());
    assertThatThrownBy(
            () -> {
              try (BlockWriter w =
                  BlockWriter.create(dir, 0, 100_000, p -> new FileOutputStream("/dev/full"))) {
                // More than the chunk writer's 64 KiB buffer: the write itself fails, mid-block.
                for (int i = 0; i < 1000; i++) {
                  w.addChunks(
                      Labels.of("__name__", "m", "i", String.format("%04d", i)), List.of(chunk));
                }
                w.commit(BlockMeta.Compaction::head);
              }
            })
        .isInstanceOf(IOException.class)
        .hasMessageContaining("No space left on device");
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).as("nothing left in the data directory").isEmpty();
    }
  }
}
