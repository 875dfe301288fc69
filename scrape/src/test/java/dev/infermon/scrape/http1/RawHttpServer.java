package dev.infermon.scrape.http1;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted HTTP/1.1 server on 127.0.0.1 over raw sockets (public for the scrape package's tests),
 * for what the JDK's HttpServer cannot do: exact response bytes (odd framing, malformed heads,
 * interim responses), connections dropped at chosen points. Each connection gets a thread that
 * reads request heads and lets the {@link Handler} answer. Records every request and counts
 * connections, and connections the client closed.
 */
public final class RawHttpServer implements AutoCloseable {
  /** Answers one request; returns whether to wait for another request on the connection. */
  @FunctionalInterface
  public interface Handler {
    boolean serve(Request r, OutputStream out) throws IOException;
  }

  /** A request head: its connection (from 1), its index on that connection (from 1), its text. */
  public record Request(int connection, int index, String head) {
    public String path() {
      return head.substring(head.indexOf(' ') + 1, head.indexOf(' ', head.indexOf(' ') + 1));
    }

    /** The first value of a header, or null; the name in any case. */
    public String header(String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }
  }

  private final ServerSocket server;
  private final Handler handler;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger clientCloses = new AtomicInteger();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  public RawHttpServer(Handler handler) {
    this.handler = handler;
    try {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread t = new Thread(this::accept, "raw-http-accept");
    t.setDaemon(true);
    t.start();
  }

  /** A server answering every request with {@code response}, keeping connections open. */
  public static RawHttpServer answering(byte[] response) {
    return new RawHttpServer(
        (r, out) -> {
          out.write(response);
          return true;
        });
  }

  public int port() {
    return server.getLocalPort();
  }

  public String url(String path) {
    return "http://127.0.0.1:" + port() + path;
  }

  public int connections() {
    return connections.get();
  }

  /** Connections on which the client closed its side (read end of stream between requests). */
  public int clientCloses() {
    return clientCloses.get();
  }

  public List<Request> requests() {
    return requests;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        sockets.add(s);
        int id = connections.incrementAndGet();
        Thread t = new Thread(() -> serve(s, id), "raw-http-" + id);
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket s, int id) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      for (int index = 1; ; index++) {
        String head = readHead(in);
        if (head == null) {
          clientCloses.incrementAndGet();
          return;
        }
        Request r = new Request(id, index, head);
        requests.add(r);
        boolean again = handler.serve(r, out);
        out.flush();
        if (!again) {
          return;
        }
      }
    } catch (IOException e) {
      if (!server.isClosed()) {
        clientCloses.incrementAndGet(); // reset by the client
      }
    }
  }

  /** The request head up to its empty line, or null at end of stream before any byte. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int c = in.read();
      if (c < 0) {
        if (b.size() == 0) {
          return null;
        }
        throw new IOException("request cut short");
      }
      b.write(c);
      matched = (c == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (c == '\r' ? 1 : 0);
    }
    return b.toString(StandardCharsets.UTF_8);
  }

  /** {@code head} (lines joined with CRLF, then an empty line) followed by {@code body}. */
  public static byte[] response(String head, byte[] body) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes((head.replace("\n", "\r\n") + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    b.writeBytes(body);
    return b.toByteArray();
  }

  public static byte[] response(String head, String body) {
    return response(head, body.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** A 200 with {@code body} and its Content-Length. */
  public static byte[] ok(String body) {
    return response(
        "HTTP/1.1 200 OK\nContent-Type: text/plain; version=0.0.4\nContent-Length: "
            + body.length(),
        body);
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }
}
