package dev.infermon.tsdb.block;

import dev.infermon.tsdb.fileutil.FileUtil;
import dev.infermon.tsdb.fileutil.MappedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads chunks of a block by reference from memory-mapped segment files. Thread-safe: immutable
 * after open; each call returns bytes in a caller-owned array.
 */
final class ChunkReader {
  private final MappedFile[] segments; // index seq-1

  private ChunkReader(MappedFile[] segments) {
    this.segments = segments;
  }

  /** Maps every segment of {@code blockDir/chunks} and checks their headers. */
  static ChunkReader open(Path blockDir) throws IOException {
    Path dir = blockDir.resolve(ChunkFormat.DIR);
    if (!Files.isDirectory(dir)) {
      throw new CorruptBlockException(dir + ": missing");
    }
    List<Path> files = FileUtil.list(dir);
    MappedFile[] segs = new MappedFile[files.size()];
    for (int i = 0; i < files.size(); i++) {
      Path expected = ChunkFormat.segmentPath(blockDir, i + 1);
      if (!files.get(i).equals(expected)) {
        throw new CorruptBlockException(
            dir + ": expected segment " + expected.getFileName() + ", found " + files.get(i));
      }
      MappedFile m = MappedFile.open(expected);
      if (m.length() < ChunkFormat.HEADER_SIZE) {
        throw new CorruptBlockException(expected + ": shorter than its header");
      }
      ByteBuffer h = m.slice(0, ChunkFormat.HEADER_SIZE);
      if (h.getInt(0) != ChunkFormat.MAGIC) {
        throw new CorruptBlockException(
            String.format("%s: bad magic 0x%08x", expected, h.getInt(0)));
      }
      if ((h.get(4) & 0xFF) != ChunkFormat.VERSION) {
        throw new CorruptBlockException(expected + ": unsupported version " + (h.get(4) & 0xFF));
      }
      segs[i] = m;
    }
    return new ChunkReader(segs);
  }

  /**
   * Copies the XOR data of chunk {@code ref} into {@code dst} (grown when too small) after checking
   * its checksum.
   *
   * @return the array holding the data at offset 0 ({@code dst} or a larger replacement); the
   *     data's length is stored in {@code len[0]}
   * @throws CorruptBlockException naming the file when the reference or the bytes are bad
   */
  byte[] read(long ref, byte[] dst, int[] len) {
    int seq = ChunkFormat.refSegment(ref);
    long off = ChunkFormat.refOffset(ref);
    if (seq < 1 || seq > segments.length) {
      throw new CorruptBlockException("chunk reference to missing segment " + seq);
    }
    MappedFile f = segments[seq - 1];
    if (off < ChunkFormat.HEADER_SIZE || off >= f.length()) {
      throw new CorruptBlockException(f.path() + ": chunk offset " + off + " out of range");
    }
    ByteBuffer b = f.slice(off, (int) Math.min(15, f.length() - off));
    long n = 0;
    int shift = 0;
    int p = 0;
    while (true) {
      if (p >= b.limit() || shift > 28) {
        throw new CorruptBlockException(f.path() + ": bad chunk length at offset " + off);
      }
      int x = b.get(p++) & 0xFF;
      n |= (long) (x & 0x7F) << shift;
      if (x < 0x80) {
        break;
      }
      shift += 7;
    }
    long total = p + 1 + n + 4;
    if (n < 2 || off + total > f.length() || total > MappedFile.OVERLAP) {
      throw new CorruptBlockException(f.path() + ": chunk at offset " + off + " overruns the file");
    }
    ByteBuffer c = f.slice(off + p, (int) (1 + n + 4));
    int enc = c.get(0) & 0xFF;
    if (enc != ChunkFormat.ENCODING_XOR && enc != ChunkFormat.ENCODING_INT) {
      throw new CorruptBlockException(f.path() + ": unknown chunk encoding " + enc + " at " + off);
    }
    int dataLen = (int) n;
    if (dst.length < dataLen) {
      dst = new byte[Math.max(dataLen, dst.length * 2)];
    }
    c.get(1, dst, 0, dataLen);
    CRC32C crc = new CRC32C();
    crc.update(enc);
    crc.update(dst, 0, dataLen);
    if ((int) crc.getValue() != c.getInt(1 + dataLen)) {
      throw new CorruptBlockException(f.path() + ": chunk checksum mismatch at offset " + off);
    }
    len[0] = dataLen;
    len[1] = enc;
    return dst;
  }

  /** Total bytes of the segment files. */
  long size() {
    long s = 0;
    for (MappedFile m : segments) {
      s += m.length();
    }
    return s;
  }
}
