package dev.infermon.simulator.http;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The ports a page server listens on, served by one small pool of daemon threads: bound one by one
 * ({@link #bind}), started together ({@link #startAll}) once every port is bound, so a taken port
 * fails the server before any page is served, and stopped together ({@link #stopAll}).
 *
 * <p>Threading: bind and start from the constructing thread; {@link #stopAll} from any thread,
 * once.
 */
final class Listeners {
  private final String host;
  private final ExecutorService pool;
  private final List<HttpServer> servers = new ArrayList<>();

  /**
   * @param threads the pool's size
   * @param threadName the name of its threads
   */
  Listeners(String host, int threads, String threadName) {
    this.host = host;
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * A server on {@code port} (0: any free one), not started yet.
   *
   * @throws IOException if the port is taken
   */
  HttpServer bind(int port) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(host, port), 64);
    s.setExecutor(pool);
    servers.add(s);
    return s;
  }

  void startAll() {
    for (HttpServer s : servers) {
      s.start();
    }
  }

  /** Stops every server and the pool, waiting up to 5 s for handlers running. */
  void stopAll() {
    for (HttpServer s : servers) {
      s.stop(0);
    }
    pool.shutdownNow();
    try {
      pool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
