package dev.infermon.tsdb.block;

import java.nio.file.Path;

/** Constants of the chunk segment files ({@code docs/format/chunks.md}). */
final class ChunkFormat {
  /** "INCH": infermon chunks. */
  static final int MAGIC = 0x494E4348;

  static final int VERSION = 1;
  static final int HEADER_SIZE = 8;

  /** Encoding byte of a Gorilla XOR chunk (same value as Prometheus's EncXOR). */
  static final int ENCODING_XOR = 1;

  /** Encoding byte of a scaled-integer delta-of-delta chunk ({@link IntChunk}); blocks only. */
  static final int ENCODING_INT = 2;

  /** Segments are cut before a chunk that would make them larger, as in Prometheus. */
  static final long DEFAULT_SEGMENT_BYTES = 512L << 20;

  static final String DIR = "chunks";

  private ChunkFormat() {}

  static Path segmentPath(Path blockDir, int seq) {
    return blockDir.resolve(DIR).resolve(String.format("%06d", seq));
  }

  /** A chunk reference: segment sequence in the upper 32 bits, byte offset in the lower 32. */
  static long ref(int seq, long offset) {
    return ((long) seq << 32) | offset;
  }

  static int refSegment(long ref) {
    return (int) (ref >>> 32);
  }

  static long refOffset(long ref) {
    return ref & 0xFFFFFFFFL;
  }
}
