package dev.infermon.textparse;

import java.io.InputStream;

/** Hands out a body at most {@code chunk} bytes per read, and counts what was read. */
final class TrickleInputStream extends InputStream {
  private final byte[] body;
  private final int chunk;
  private int pos;

  TrickleInputStream(byte[] body, int chunk) {
    this.body = body;
    this.chunk = chunk;
  }

  /** Bytes handed out so far. */
  int consumed() {
    return pos;
  }

  @Override
  public int read() {
    return pos < body.length ? body[pos++] & 0xFF : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (pos >= body.length) {
      return -1;
    }
    int n = Math.min(Math.min(len, chunk), body.length - pos);
    System.arraycopy(body, pos, b, off, n);
    pos += n;
    return n;
  }
}
