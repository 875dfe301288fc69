package dev.infermon.tsdb.fileutil;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * Reads and writes between file channels and heap memory in slices of at most {@link #SLICE} bytes.
 * The JDK moves a heap buffer to or from a file through a temporary direct buffer as large as the
 * buffer's whole remaining part, and keeps the largest one it made for each thread for the rest of
 * the thread's life ({@code sun.nio.ch.Util}'s buffer cache, unbounded unless {@code
 * -Djdk.nio.maxCachedBufferSize} is set). Reading a 128 MiB write-ahead-log segment in one call
 * left a 128 MiB native buffer resident on the thread that wrote the checkpoint after a head
 * compaction, half of {@code serve}'s resident memory in the steady-state benchmark. In slices, no
 * thread holds a temporary buffer larger than {@link #SLICE}; a slice of 1 MiB costs one system
 * call per MiB.
 *
 * <p>Thread-safe (stateless); the channels and buffers are the caller's.
 */
public final class ChannelIo {
  /** The largest part of a heap buffer handed to one channel call. */
  public static final int SLICE = 1 << 20;

  private ChannelIo() {}

  /** Reads from the channel's position until {@code dst} is full or the file ends. */
  public static void readFully(FileChannel ch, ByteBuffer dst) throws IOException {
    int end = dst.limit();
    try {
      while (dst.position() < end) {
        dst.limit(Math.min(end, dst.position() + SLICE));
        if (ch.read(dst) < 0) {
          return;
        }
      }
    } finally {
      dst.limit(end);
    }
  }

  /** Writes all of {@code src} at the channel's position. */
  public static void writeFully(FileChannel ch, ByteBuffer src) throws IOException {
    int end = src.limit();
    try {
      while (src.position() < end) {
        src.limit(Math.min(end, src.position() + SLICE));
        while (src.hasRemaining()) {
          ch.write(src);
        }
      }
    } finally {
      src.limit(end);
    }
  }

  /** Writes all of {@code src} at {@code position}, leaving the channel's position alone. */
  public static void writeFully(FileChannel ch, ByteBuffer src, long position) throws IOException {
    int end = src.limit();
    long at = position;
    try {
      while (src.position() < end) {
        src.limit(Math.min(end, src.position() + SLICE));
        while (src.hasRemaining()) {
          at += ch.write(src, at);
        }
      }
    } finally {
      src.limit(end);
    }
  }

  /**
   * A stream that passes {@code out} at most {@link #SLICE} bytes per call, for streams over a
   * channel ({@code Files.newOutputStream}), which hand the caller's whole array to the channel.
   */
  public static OutputStream sliced(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        for (int at = off, left = len; left > 0; ) {
          int n = Math.min(left, SLICE);
          out.write(b, at, n);
          at += n;
          left -= n;
        }
      }
    };
  }
}
