package dev.infermon.server.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in Alertmanager and remote-write receiver on 127.0.0.1: it answers 200 to every request
 * and records each as {@code "METHOD path body"} (the body as ISO-8859-1, so binary remote-write
 * payloads survive and JSON stays readable), in arrival order. Thread-safe.
 */
final class PostRecorder implements AutoCloseable {
  private final HttpServer server;
  private final BlockingQueue<String> requests = new LinkedBlockingQueue<>();

  private PostRecorder(HttpServer server) {
    this.server = server;
  }

  static PostRecorder start() throws IOException {
    HttpServer s =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    PostRecorder r = new PostRecorder(s);
    s.createContext(
        "/",
        ex -> {
          byte[] body = ex.getRequestBody().readAllBytes();
          r.requests.add(
              ex.getRequestMethod()
                  + " "
                  + ex.getRequestURI().getPath()
                  + " "
                  + new String(body, StandardCharsets.ISO_8859_1));
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    s.start();
    return r;
  }

  /** {@code 127.0.0.1:port}, for a configuration's targets and URLs. */
  String hostPort() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /** The next request, or null when none arrives within {@code patience}. */
  String next(Duration patience) throws InterruptedException {
    return requests.poll(patience.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * The first request from now on that starts with {@code prefix}; fails after {@code patience}.
   */
  String await(String prefix, Duration patience) throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    while (System.nanoTime() < deadline) {
      String p = requests.poll(200, TimeUnit.MILLISECONDS);
      if (p != null && p.startsWith(prefix)) {
        return p;
      }
    }
    throw new AssertionError("no " + prefix + " within " + patience);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
