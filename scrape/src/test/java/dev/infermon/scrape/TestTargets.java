package dev.infermon.scrape;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.GZIPOutputStream;

/**
 * Scrape targets on 127.0.0.1 served by the JDK's HttpServer: each path {@code /t/<name>} behaves
 * as its {@link Behavior} says, and the behavior can change between scrapes. Records the headers of
 * the last request per name.
 */
final class TestTargets implements AutoCloseable {
  /** What a target answers. */
  @FunctionalInterface
  interface Behavior {
    void serve(HttpExchange ex) throws IOException;
  }

  static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(8);
  private final Map<String, Behavior> behaviors = new ConcurrentHashMap<>();
  private final Map<String, Map<String, String>> lastHeaders = new ConcurrentHashMap<>();

  TestTargets() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext(
        "/t/",
        ex -> {
          String name = ex.getRequestURI().getPath().substring(3);
          Map<String, String> h = new ConcurrentHashMap<>();
          ex.getRequestHeaders().forEach((k, v) -> h.put(k.toLowerCase(), String.join(",", v)));
          lastHeaders.put(name, h);
          Behavior b = behaviors.getOrDefault(name, status(404));
          try {
            b.serve(ex);
          } catch (IOException e) {
            // the client went away (timeout): fine
          } finally {
            ex.close();
          }
        });
    server.start();
  }

  /** {@code 127.0.0.1:port}. */
  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  void set(String name, Behavior b) {
    behaviors.put(name, b);
  }

  Map<String, String> lastHeaders(String name) {
    return lastHeaders.getOrDefault(name, Map.of());
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // ---- behaviors ----

  static Behavior page(String body) {
    return page(body.getBytes(StandardCharsets.UTF_8), TEXT);
  }

  static Behavior page(byte[] body, String contentType) {
    return ex -> {
      ex.getResponseHeaders().set("Content-Type", contentType);
      boolean gzip =
          String.valueOf(ex.getRequestHeaders().getFirst("Accept-Encoding")).contains("gzip");
      byte[] out = body;
      if (gzip) {
        out = gzip(body);
        ex.getResponseHeaders().set("Content-Encoding", "gzip");
      }
      ex.sendResponseHeaders(200, out.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(out);
      }
    };
  }

  static Behavior status(int code) {
    return ex -> {
      byte[] b = ("error " + code).getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(code, b.length);
      ex.getResponseBody().write(b);
    };
  }

  /** Answers after {@code ms}. */
  static Behavior slow(long ms, String body) {
    Behavior p = page(body);
    return ex -> {
      sleep(ms);
      p.serve(ex);
    };
  }

  /** Sends the head, then one line every {@code everyMs}, {@code lines} times. */
  static Behavior trickle(long everyMs, int lines) {
    return ex -> {
      ex.getResponseHeaders().set("Content-Type", TEXT);
      ex.sendResponseHeaders(200, 0); // chunked
      OutputStream os = ex.getResponseBody();
      for (int i = 0; i < lines; i++) {
        os.write(("trickle_metric{i=\"" + i + "\"} 1\n").getBytes(StandardCharsets.UTF_8));
        os.flush();
        sleep(everyMs);
      }
    };
  }

  /**
   * Announces {@code declared} bytes, sends the first {@code sent} of {@code body}, then closes.
   */
  static Behavior truncated(String body, int declared, int sent) {
    return ex -> {
      ex.getResponseHeaders().set("Content-Type", TEXT);
      ex.sendResponseHeaders(200, declared);
      OutputStream os = ex.getResponseBody();
      os.write(body.getBytes(StandardCharsets.UTF_8), 0, sent);
      os.flush();
      // Closing the exchange short of the declared length drops the connection mid-body.
      throw new IOException("cut");
    };
  }

  /** A gzipped body whose plain form is {@code plainBytes} long, sent gzipped in any case. */
  static Behavior gzipBomb(int plainBytes) {
    StringBuilder sb = new StringBuilder(plainBytes + 64);
    int i = 0;
    while (sb.length() < plainBytes) {
      sb.append("bomb_metric{i=\"").append(i++ % 10).append("\"} 1\n");
    }
    byte[] z = gzip(sb.toString().getBytes(StandardCharsets.UTF_8));
    return ex -> {
      ex.getResponseHeaders().set("Content-Type", TEXT);
      ex.getResponseHeaders().set("Content-Encoding", "gzip");
      ex.sendResponseHeaders(200, z.length);
      ex.getResponseBody().write(z);
    };
  }

  static byte[] gzip(byte[] b) {
    try {
      ByteArrayOutputStream bo = new ByteArrayOutputStream();
      try (GZIPOutputStream z = new GZIPOutputStream(bo)) {
        z.write(b);
      }
      return bo.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String resource(String name) {
    try (InputStream in = TestTargets.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
