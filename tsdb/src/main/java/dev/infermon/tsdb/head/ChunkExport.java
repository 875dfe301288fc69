package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.chunkenc.XorChunk;
import dev.infermon.tsdb.chunkenc.XorIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Reads the head's chunks out for compaction ({@link Head#exportChunks}). */
public final class ChunkExport {
  private ChunkExport() {}

  /**
   * One encoded XOR chunk.
   *
   * @param minTime time of its first sample
   * @param maxTime time of its last sample
   * @param bytes the encoded chunk (a copy the consumer owns)
   */
  public record Chunk(long minTime, long maxTime, byte[] bytes) {}

  /** Receives series in label order. */
  @FunctionalInterface
  public interface Consumer {
    void accept(long ref, Labels labels, List<Chunk> chunks);
  }

  static void run(Head head, long mint, long maxt, Consumer consumer) {
    List<MemSeries> all = head.allSeries();
    all.sort(Comparator.comparing(s -> s.labels));
    ChunkStore store = head.chunkStore();
    for (MemSeries s : all) {
      SeriesSnapshot snap;
      byte[] openCopy = null;
      synchronized (s) {
        snap = s.snapshot(store);
        if (snap.open() != null) {
          // The open chunk's array keeps changing; copy the captured bytes while they are stable.
          openCopy = java.util.Arrays.copyOf(snap.open(), snap.openLength());
        }
      }
      List<Chunk> chunks = new ArrayList<>();
      for (int i = 0; i < snap.chunks(); i++) {
        long lo = snap.chunkMin(i);
        long hi = snap.chunkMax(i);
        if (hi < mint || lo > maxt) {
          continue;
        }
        boolean isOpen = i == snap.completed();
        if (lo >= mint && hi <= maxt) {
          byte[] b = isOpen ? withCount(openCopy, snap.openCount()) : snap.completedBytes(i);
          chunks.add(new Chunk(lo, hi, b));
        } else {
          Chunk c = reencode(snap.chunkIterator(i), mint, maxt);
          if (c != null) {
            chunks.add(c);
          }
        }
      }
      if (!chunks.isEmpty()) {
        consumer.accept(s.id, s.labels, chunks);
      }
    }
  }

  private static byte[] withCount(byte[] b, int count) {
    b[0] = (byte) (count >>> 8);
    b[1] = (byte) count;
    return b;
  }

  private static Chunk reencode(XorIterator it, long mint, long maxt) {
    XorChunk c = XorChunk.create();
    if (!it.seek(mint)) {
      return null;
    }
    do {
      if (it.timestamp() > maxt) {
        break;
      }
      c.append(it.timestamp(), it.value());
    } while (it.next());
    if (c.numSamples() == 0) {
      return null;
    }
    return new Chunk(c.minTime(), c.maxTime(), c.bytes());
  }
}
