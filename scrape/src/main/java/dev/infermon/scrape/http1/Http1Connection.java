package dev.infermon.scrape.http1;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * One plain-HTTP/1.1 connection of an {@link Http1Client}: the socket, its small read buffer, and
 * the deadline logic. Every blocking read first arms {@code SO_TIMEOUT} with the time left before
 * the scrape's deadline, so a slow trickle fails at the deadline without a timer task; the timeout
 * is re-armed only when it moved by more than {@link #TIMEOUT_SLACK_MS} (each call is a system
 * call), which lets a read outlive the deadline by at most that much.
 *
 * <p>Buffer ownership: {@link #buf} belongs to the connection; {@code [pos, lim)} holds bytes read
 * from the socket and not consumed yet. Response bodies with a known length bypass it and are read
 * straight into the caller's array ({@link #read}).
 *
 * <p>Threading: used by one fetch at a time; {@link #close()} may come from any thread (a stopped
 * loop), which makes a blocked read fail.
 */
final class Http1Connection implements Closeable {
  /** Holds a typical response head; bodies bypass it. */
  static final int BUFFER_BYTES = 4096;

  private static final int TIMEOUT_SLACK_MS = 10;
  private static final int UNSET = Integer.MIN_VALUE / 2;

  final String host;
  final int port;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  byte[] buf = new byte[BUFFER_BYTES];
  int pos;
  int lim;

  /** Complete responses read on this connection: above 0, the connection was reused. */
  int responses;

  /** Whether a response byte arrived in the current exchange (no stale-connection retry then). */
  boolean received;

  private int soTimeout = UNSET;

  private Http1Connection(String host, int port, Socket socket) throws IOException {
    this.host = host;
    this.port = port;
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /**
   * Connects to {@code host:port} before the deadline.
   *
   * @throws SocketTimeoutException when the deadline passes first
   */
  static Http1Connection open(String host, int port, long deadline) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(host, port), millisLeft(deadline));
      return new Http1Connection(host, port, s);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  boolean connectedTo(String h, int p) {
    return port == p && host.equals(h);
  }

  /** Starts an exchange: the request goes out in one write. */
  void send(byte[] request, int length) throws IOException {
    received = false;
    out.write(request, 0, length);
  }

  /**
   * Reads more bytes into the buffer after {@code lim}, first moving unread bytes to its start and
   * growing it up to {@code maxBuffer} if it is full.
   *
   * @return false at end of stream
   */
  boolean fill(long deadline, int maxBuffer) throws IOException {
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, lim - pos);
      lim -= pos;
      pos = 0;
    }
    if (lim == buf.length) {
      if (buf.length >= maxBuffer) {
        throw new IllegalStateException("buffer full"); // callers check their limits first
      }
      byte[] b = new byte[Math.min(maxBuffer, buf.length * 2)];
      System.arraycopy(buf, 0, b, 0, lim);
      buf = b;
    }
    int r = readSocket(buf, lim, buf.length - lim, deadline);
    if (r < 0) {
      return false;
    }
    lim += r;
    return true;
  }

  /**
   * Reads up to {@code len} bytes into {@code dst}: buffered ones first, otherwise straight from
   * the socket (no copy through the buffer).
   *
   * @return the count read, or -1 at end of stream
   */
  int read(byte[] dst, int off, int len, long deadline) throws IOException {
    if (pos < lim) {
      int n = Math.min(len, lim - pos);
      System.arraycopy(buf, pos, dst, off, n);
      pos += n;
      return n;
    }
    return readSocket(dst, off, len, deadline);
  }

  /**
   * The end of the next line in the buffer (its {@code \n}, or the {@code \r} before it), reading
   * more as needed; {@link #next} gives the start of the line after it. Bare {@code \n} line ends
   * are accepted, as Go's reader does.
   *
   * @param budget the most bytes the line may take, its end included
   * @return the end, or -1 if the line is longer than {@code budget}
   * @throws EOFException at the end of the stream
   */
  int lineEnd(long deadline, int budget) throws IOException {
    int scanned = 0; // bytes after pos known to hold no line end
    while (true) {
      int stop = Math.min(lim, pos + budget);
      for (int i = pos + scanned; i < stop; i++) {
        if (buf[i] == '\n') {
          return i > pos && buf[i - 1] == '\r' ? i - 1 : i;
        }
      }
      scanned = stop - pos;
      if (scanned >= budget) {
        return -1;
      }
      if (!fill(deadline, Math.max(BUFFER_BYTES, budget))) {
        throw new EOFException("connection closed");
      }
    }
  }

  /** The start of the line after the one ending at {@code end} ({@link #lineEnd}). */
  int next(int end) {
    return buf[end] == '\r' ? end + 2 : end + 1;
  }

  /** Back to the default buffer size when it grew for a long head and holds nothing. */
  void shrinkBuffer() {
    if (buf.length > BUFFER_BYTES && pos == lim) {
      buf = new byte[BUFFER_BYTES];
      pos = 0;
      lim = 0;
    }
  }

  private int readSocket(byte[] b, int off, int len, long deadline) throws IOException {
    while (true) {
      int ms = millisLeft(deadline);
      if (Math.abs(ms - soTimeout) > TIMEOUT_SLACK_MS) {
        socket.setSoTimeout(ms);
        soTimeout = ms;
      }
      try {
        int r = in.read(b, off, len);
        if (r > 0) {
          received = true;
        }
        return r;
      } catch (SocketTimeoutException e) {
        if (deadline - System.nanoTime() <= 0) {
          throw e;
        }
        soTimeout = UNSET; // armed a little short of the deadline: re-arm exactly and go on
      }
    }
  }

  /**
   * Milliseconds left before {@code deadline}, at least 1 (0 would mean no timeout at all).
   *
   * @throws SocketTimeoutException when none are left
   */
  static int millisLeft(long deadline) throws SocketTimeoutException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("deadline passed");
    }
    return (int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Nothing to do: the connection is gone either way.
    }
  }
}
