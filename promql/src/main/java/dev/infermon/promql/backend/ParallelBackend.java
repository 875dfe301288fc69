package dev.infermon.promql.backend;

import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where parallel evaluation happens: {@link #rangeQueryAsync} runs the delegate's range query on a
 * bounded pool shared by every caller of this backend, so a dashboard's distinct queries run side
 * by side and all requests together run at most {@code threads} at a time (the rest wait in an
 * unbounded queue, in order). Every other call runs on the caller's thread, as the delegate would.
 *
 * <p>Threading and ownership: thread-safe. The pool's threads are daemons that end when idle for 30
 * s, so the backend needs no closing; the delegate's own limits (timeout, samples) apply to each
 * query.
 */
public final class ParallelBackend extends ForwardingBackend {
  private static final AtomicInteger THREAD_IDS = new AtomicInteger();

  private final ThreadPoolExecutor pool;

  /**
   * @param delegate what each query evaluates on
   * @param threads queries evaluated at once, at least 1
   * @throws IllegalArgumentException when {@code threads} is below 1
   */
  public ParallelBackend(QueryBackend delegate, int threads) {
    super(delegate);
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "query-" + THREAD_IDS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
  }

  /** The range query evaluated on the pool; the future fails as the delegate threw. */
  @Override
  public CompletableFuture<QueryResult> rangeQueryAsync(
      String query, long startMs, long endMs, long stepMs) {
    CompletableFuture<QueryResult> f = new CompletableFuture<>();
    try {
      pool.execute(
          () -> {
            try {
              f.complete(delegate.rangeQuery(query, startMs, endMs, stepMs));
            } catch (RuntimeException | Error e) {
              f.completeExceptionally(e);
            }
          });
    } catch (RejectedExecutionException e) {
      f.completeExceptionally(e);
    }
    return f;
  }
}
