package dev.infermon.tsdb.fileutil;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChannelIoTest {
  private static final int SIZE = 16 << 20;

  @TempDir Path dir;

  private static byte[] data(int n) {
    byte[] b = new byte[n];
    new Random(25).nextBytes(b);
    return b;
  }

  @Test
  void writesAndReadsEveryByteAcrossSlices() throws Exception {
    byte[] b = data(3 * ChannelIo.SLICE + 12_345);
    Path f = dir.resolve("f");
    try (FileChannel ch =
        FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ChannelIo.writeFully(ch, ByteBuffer.wrap(b, 0, 100));
      ChannelIo.writeFully(ch, ByteBuffer.wrap(b, 100, b.length - 100));
    }
    assertThat(Files.readAllBytes(f)).isEqualTo(b);

    ByteBuffer back = ByteBuffer.allocate(b.length + 10);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
      ChannelIo.readFully(ch, back);
    }
    assertThat(back.position()).as("stops at the end of the file").isEqualTo(b.length);
    assertThat(back.limit()).as("limit restored").isEqualTo(b.length + 10);
    assertThat(java.util.Arrays.copyOf(back.array(), b.length)).isEqualTo(b);
  }

  @Test
  void positionalWriteLeavesTheChannelPositionAndWritesAtTheOffset() throws Exception {
    byte[] b = data(2 * ChannelIo.SLICE + 7);
    Path f = dir.resolve("p");
    try (FileChannel ch =
        FileChannel.open(
            f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ChannelIo.writeFully(ch, ByteBuffer.wrap(b), 5);
      assertThat(ch.position()).isZero();
    }
    byte[] got = Files.readAllBytes(f);
    assertThat(got).hasSize(b.length + 5);
    assertThat(java.util.Arrays.copyOfRange(got, 5, got.length)).isEqualTo(b);
  }

  @Test
  void slicedStreamWritesEveryByte() throws Exception {
    byte[] b = data(2 * ChannelIo.SLICE + 99);
    Path f = dir.resolve("s");
    try (OutputStream out = ChannelIo.sliced(Files.newOutputStream(f))) {
      out.write(b, 1, b.length - 1);
      out.write(b[0]);
    }
    byte[] got = Files.readAllBytes(f);
    assertThat(java.util.Arrays.copyOfRange(got, 0, b.length - 1))
        .isEqualTo(java.util.Arrays.copyOfRange(b, 1, b.length));
    assertThat(got[b.length - 1]).isEqualTo(b[0]);
  }

  /**
   * What the class is for: a whole-buffer read leaves a direct buffer of the buffer's size cached
   * on the thread (the first assertion shows the JDK does so here); through ChannelIo, at most one
   * slice's.
   */
  @Test
  void aThreadKeepsAtMostOneSliceOfNativeBuffer() throws Exception {
    Path f = dir.resolve("big");
    Files.write(f, data(SIZE));

    long whole =
        DirectMemory.growthOnFreshThread(
            () -> {
              try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                ByteBuffer buf = ByteBuffer.allocate(SIZE);
                while (buf.hasRemaining() && ch.read(buf) >= 0) {
                  // the plain loop
                }
              }
            });
    assertThat(whole).as("JDK's cached temporary buffer").isGreaterThanOrEqualTo(SIZE);

    long sliced =
        DirectMemory.growthOnFreshThread(
            () -> {
              try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                ChannelIo.readFully(ch, ByteBuffer.allocate(SIZE));
              }
              try (OutputStream out =
                  ChannelIo.sliced(Files.newOutputStream(dir.resolve("copy")))) {
                out.write(new byte[SIZE]);
              }
              try (FileChannel ch =
                  FileChannel.open(
                      dir.resolve("copy2"),
                      StandardOpenOption.CREATE_NEW,
                      StandardOpenOption.WRITE)) {
                ChannelIo.writeFully(ch, ByteBuffer.allocate(SIZE));
              }
            });
    assertThat(sliced).isLessThanOrEqualTo(2L * ChannelIo.SLICE);
  }
}
