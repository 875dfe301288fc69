package dev.infermon.promql.backend;

import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Identical queries in flight share one evaluation: a query (same text and time, or same text and
 * range and step) asked while the same one is being evaluated waits for that evaluation and gets
 * its answer, or its exception — the same instance, rethrown to every joined caller. A query asked
 * after the evaluation ended is evaluated again: nothing is kept (that is {@link CachingBackend}'s
 * job). A page's two requests share some queries, which this evaluates once.
 *
 * <p>Joined are {@link #instantQuery(String, long)}, {@link #rangeQuery(String, long, long, long)}
 * and {@link #rangeQueryAsync}; the forms with a caller's timeout pass through (see {@link
 * ForwardingBackend}). The first caller evaluates on its own thread (or, asynchronously, where the
 * delegate's {@code rangeQueryAsync} does); joined callers block until it ends, or hold its future.
 *
 * <p>Threading: thread-safe; holds only the futures of evaluations in flight, removed when they
 * end.
 */
public final class JoiningBackend extends ForwardingBackend {
  private final ConcurrentHashMap<Key, CompletableFuture<QueryResult>> inflight =
      new ConcurrentHashMap<>();

  /**
   * @param delegate where the one evaluation of each set of identical queries runs
   */
  public JoiningBackend(QueryBackend delegate) {
    super(delegate);
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    return joined(new Key(query, timeMs, timeMs, 0), () -> delegate.instantQuery(query, timeMs));
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    return joined(
        new Key(query, startMs, endMs, stepMs),
        () -> delegate.rangeQuery(query, startMs, endMs, stepMs));
  }

  @Override
  public CompletableFuture<QueryResult> rangeQueryAsync(
      String query, long startMs, long endMs, long stepMs) {
    Key key = new Key(query, startMs, endMs, stepMs);
    CompletableFuture<QueryResult> mine = new CompletableFuture<>();
    CompletableFuture<QueryResult> running = inflight.putIfAbsent(key, mine);
    if (running != null) {
      return running;
    }
    CompletableFuture<QueryResult> evaluation;
    try {
      evaluation = delegate.rangeQueryAsync(query, startMs, endMs, stepMs);
    } catch (RuntimeException | Error e) {
      evaluation = CompletableFuture.failedFuture(e);
    }
    evaluation.whenComplete(
        (r, e) -> {
          inflight.remove(key, mine);
          if (e == null) {
            mine.complete(r);
          } else {
            mine.completeExceptionally(unwrap(e));
          }
        });
    return mine;
  }

  private QueryResult joined(Key key, Supplier<QueryResult> evaluation) {
    CompletableFuture<QueryResult> mine = new CompletableFuture<>();
    CompletableFuture<QueryResult> running = inflight.putIfAbsent(key, mine);
    if (running != null) {
      return QueryStack.await(running);
    }
    try {
      QueryResult r = evaluation.get();
      mine.complete(r);
      return r;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inflight.remove(key, mine);
    }
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  /** A query's identity: an instant query has {@code start == end} and step 0. */
  private record Key(String query, long startMs, long endMs, long stepMs) {}
}
