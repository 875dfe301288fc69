package dev.infermon.textparse;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Cuts a page into lines, over a byte array (no copy) or an InputStream (through one bounded
 * buffer), enforcing the body and line limits as it goes.
 *
 * <p>After {@link #next()} returns true, the current line is {@code buf[start, end)} without its
 * newline. The buffer may be compacted or replaced by the following {@code next()}, so offsets are
 * valid until then only. Not thread-safe.
 */
final class LineReader {
  private static final int CHUNK = 64 << 10;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final InputStream in; // null: the whole body is already in buf
  private final long maxBody;
  private final int maxLine;

  byte[] buf;
  int start;
  int end;

  /** Whether the current line ended with a newline (false only for a last line without one). */
  boolean terminated;

  /** 1-based number of the current line; 0 before the first. */
  int lineNo;

  private int dataEnd; // buf[.., dataEnd) holds data read so far
  private boolean eof; // nothing after dataEnd
  private boolean cutAtLimit; // the body continues past maxBody
  private long discarded; // bytes dropped from the front of buf by compaction
  private boolean done;
  private int emptyReads;

  LineReader(byte[] body, int offset, int length, long maxBody, int maxLine) {
    this.in = null;
    this.maxBody = maxBody;
    this.maxLine = maxLine;
    this.buf = body;
    this.end = offset - 1; // next() starts at end + 1
    this.terminated = true;
    this.discarded = -offset;
    if (length > maxBody) {
      this.dataEnd = (int) (offset + maxBody);
      this.cutAtLimit = true;
    } else {
      this.dataEnd = offset + length;
    }
    this.eof = true;
  }

  LineReader(InputStream in, long maxBody, int maxLine) {
    this.in = in;
    this.maxBody = maxBody;
    this.maxLine = maxLine;
    this.buf = new byte[(int) Math.min(CHUNK, Math.min(maxBody + 1, (long) maxLine + 2))];
    this.end = -1;
    this.terminated = true;
  }

  /** The limit on the body, for messages. */
  long maxBody() {
    return maxBody;
  }

  /** The limit on a line, for messages. */
  int maxLine() {
    return maxLine;
  }

  /**
   * Advances to the next line.
   *
   * @return false at the end of the page
   * @throws ParseException for a line over the limit, a body over the limit, or an I/O error
   */
  boolean next() throws ParseException {
    if (done) {
      return false;
    }
    if (!terminated) { // the previous line was the last
      done = true;
      return false;
    }
    int from = end + 1;
    int scanFrom = from;
    while (true) {
      int window = (int) Math.min(dataEnd, (long) from + maxLine + 1);
      int nl = indexOfNewline(buf, scanFrom, window);
      if (nl >= 0) {
        lineNo++;
        start = from;
        end = nl;
        terminated = true;
        return true;
      }
      if (dataEnd - from > maxLine) {
        lineNo++;
        start = from;
        end = from + maxLine;
        done = true;
        throw lineTooLong();
      }
      if (eof) {
        if (from == dataEnd) {
          done = true;
          if (cutAtLimit) {
            lineNo++;
            start = from;
            end = from;
            throw bodyTooLarge();
          }
          return false;
        }
        lineNo++;
        start = from;
        end = dataEnd;
        terminated = false;
        if (cutAtLimit) {
          done = true;
          throw bodyTooLarge();
        }
        return true;
      }
      scanFrom = dataEnd;
      int shift = fill(from);
      from -= shift;
      scanFrom -= shift;
    }
  }

  /**
   * Reads more bytes, first moving the partial line at {@code from} to the front; returns the
   * shift.
   */
  private int fill(int from) throws ParseException {
    int shift = 0;
    if (from > 0) {
      System.arraycopy(buf, from, buf, 0, dataEnd - from);
      dataEnd -= from;
      discarded += from;
      shift = from;
    }
    if (dataEnd == buf.length) {
      long want = Math.min((long) maxLine + 2, Math.min(maxBody + 1, (long) buf.length * 2));
      byte[] bigger = new byte[(int) Math.max(want, buf.length + 1L)];
      System.arraycopy(buf, 0, bigger, 0, dataEnd);
      buf = bigger;
    }
    long readSoFar = discarded + dataEnd;
    int room = (int) Math.min(buf.length - dataEnd, maxBody + 1 - readSoFar);
    int n;
    try {
      n = in.read(buf, dataEnd, room);
    } catch (IOException | RuntimeException e) {
      done = true;
      throw new ParseException(
          ParseException.Reason.IO, lineNo + 1, 1, "reading the body failed: " + e, false, e);
    }
    if (n < 0) {
      eof = true;
      return shift;
    }
    if (n == 0 && ++emptyReads > 1000) { // a stream that never blocks nor ends
      done = true;
      throw new ParseException(
          ParseException.Reason.IO,
          lineNo + 1,
          1,
          "reading the body failed: the stream returns no data",
          false,
          null);
    }
    dataEnd += n;
    if (discarded + dataEnd > maxBody) {
      dataEnd -= (int) (discarded + dataEnd - maxBody);
      cutAtLimit = true;
      eof = true;
    }
    return shift;
  }

  private ParseException lineTooLong() {
    return new ParseException(
        ParseException.Reason.LIMIT,
        lineNo,
        Utf8.column(buf, start, end),
        "line is longer than the limit of " + maxLine + " bytes",
        false,
        null);
  }

  private ParseException bodyTooLarge() {
    return new ParseException(
        ParseException.Reason.LIMIT,
        lineNo,
        Utf8.column(buf, start, end),
        "body is larger than the limit of " + maxBody + " bytes",
        false,
        null);
  }

  /** The first '\n' in {@code b[from, to)}, or -1; eight bytes per step (SWAR). */
  static int indexOfNewline(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONGS.get(b, i) ^ 0x0A0A0A0A0A0A0A0AL;
      // A zero byte of x is a newline; borrows can only flag bytes above a true zero, so the
      // lowest flagged byte is the first newline.
      long t = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L;
      if (t != 0) {
        return i + (Long.numberOfTrailingZeros(t) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
