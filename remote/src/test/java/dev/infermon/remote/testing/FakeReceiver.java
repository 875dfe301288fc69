package dev.infermon.remote.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * A remote-write receiver on 127.0.0.1 for tests: records every request (headers and decoded body)
 * and answers with the status {@link #respond} supplies (204 by default), so tests script outages
 * and rejections.
 */
public final class FakeReceiver implements AutoCloseable {
  /** One request as received. */
  public record Received(Map<String, List<String>> headers, WireDecoder.Request body, int status) {
    public String header(String name) {
      for (Map.Entry<String, List<String>> e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue().get(0);
        }
      }
      return null;
    }
  }

  private final HttpServer server;
  private final List<Received> received = new ArrayList<>();
  private volatile IntSupplier respond = () -> 204;
  private volatile String retryAfter;

  public FakeReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/api/v1/write", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/write";
  }

  /** Sets the status of the following responses. */
  public void respondWith(IntSupplier status) {
    this.respond = status;
  }

  /** Sets a {@code Retry-After} header (seconds) on non-2xx responses; null for none. */
  public void retryAfter(String seconds) {
    this.retryAfter = seconds;
  }

  private void handle(HttpExchange ex) throws IOException {
    byte[] body = ex.getRequestBody().readAllBytes();
    int status = respond.getAsInt();
    synchronized (received) {
      received.add(
          new Received(Map.copyOf(ex.getRequestHeaders()), WireDecoder.decode(body), status));
      received.notifyAll();
    }
    if (status / 100 != 2 && retryAfter != null) {
      ex.getResponseHeaders().add("Retry-After", retryAfter);
    }
    byte[] msg = status / 100 == 2 ? new byte[0] : ("status " + status).getBytes();
    ex.sendResponseHeaders(status, msg.length == 0 ? -1 : msg.length);
    if (msg.length > 0) {
      ex.getResponseBody().write(msg);
    }
    ex.close();
  }

  /** Every request so far. */
  public List<Received> received() {
    synchronized (received) {
      return List.copyOf(received);
    }
  }

  /** Samples in the requests answered 2xx. */
  public List<WireDecoder.Series> accepted() {
    List<WireDecoder.Series> out = new ArrayList<>();
    for (Received r : received()) {
      if (r.status() / 100 == 2) {
        out.addAll(r.body().series());
      }
    }
    return out;
  }

  /** Waits (at most {@code seconds}) until the condition holds; false if it never did. */
  public boolean await(BooleanSupplier condition, int seconds) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    synchronized (received) {
      while (!condition.getAsBoolean()) {
        long left = until - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        received.wait(Math.max(1, Math.min(50, TimeUnit.NANOSECONDS.toMillis(left))));
      }
      return true;
    }
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
