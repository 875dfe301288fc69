package dev.infermon.promql.backend;

import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Composes the query stack a process queries through, once, over the backend that evaluates (the
 * embedded engine or a remote API, with whatever counts evaluations below):
 *
 * <pre>
 * JoiningBackend → ParallelBackend → CachingBackend → [RollupBackend →] HeadroomBackend → evaluator
 * </pre>
 *
 * Joining comes first so that a query identical to one in flight waits for it without taking a pool
 * thread; the pool comes before the cache so that a cached query's tail is evaluated in parallel
 * too; the cache sits on the evaluator, whose {@link QueryBackend#immutableBefore()} says which
 * steps are final, and below it only evaluations pass (a joined query or a cached step is no
 * evaluation); evaluations hold the heap's headroom open ({@link HeapHeadroom}: room to grow while
 * queries run under {@code serve}'s tight heap). With {@link Rollups}, the range queries they keep
 * read their stored answers below the cache ({@link RollupBackend}), so the cache and joining work
 * on the merged answer as on any other, and only the steps not stored are evaluations. Stateless;
 * each stack owns its pool and cache, the headroom is the process's.
 */
public final class QueryStack {
  /**
   * How far inside the storage's appendable window a step must be to be cached: covers an appender
   * opened before the window moved (a scrape's lives for one scrape timeout at most).
   */
  public static final long APPENDER_MARGIN_MS = 5 * 60_000;

  /**
   * A cached range result is evaluated again in full after this (retention, see CachingBackend).
   */
  static final long RANGE_CACHE_MAX_AGE_MS = 10 * 60_000;

  static final int RANGE_CACHE_ENTRIES = 1024;

  /**
   * Points of cached range results kept, {@link #rangeCachePoints} of this JVM's heap: a full 6 h
   * dashboard holds about a million points per hundred pods, and one that does not fit is not
   * helped at all (its queries evict each other, least recently used first, in the order it asks
   * them), so the bound grows with the heap a large fleet is given.
   */
  static final long RANGE_CACHE_POINTS = rangeCachePoints(Runtime.getRuntime().maxMemory());

  /**
   * A sixteenth of {@code maxHeapBytes} in points of 16 bytes, and at least 4 million (64 MB: four
   * full 6 h dashboards of 100 pods, other filters or quantiles).
   */
  static long rangeCachePoints(long maxHeapBytes) {
    return Math.max(4_000_000, maxHeapBytes / 16 / 16);
  }

  /** Queries of all callers of one stack evaluated at most this many at a time. */
  static final int QUERY_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  private QueryStack() {}

  /**
   * The full stack: joining, the pool and the results cache over {@code evaluator}; the cache keeps
   * nothing when the evaluator cannot tell which steps are final.
   *
   * @throws IllegalArgumentException when {@code evaluator} is null
   */
  public static QueryBackend of(QueryBackend evaluator) {
    return of(evaluator, null);
  }

  /**
   * As {@link #of(QueryBackend)}, the range queries {@code rollups} keeps read from their stored
   * answers; null for none.
   *
   * @throws IllegalArgumentException when {@code evaluator} is null
   */
  public static QueryBackend of(QueryBackend evaluator, Rollups rollups) {
    QueryBackend evaluating = new HeadroomBackend(evaluator, HeapHeadroom.jvm());
    return new JoiningBackend(
        new ParallelBackend(
            new CachingBackend(
                rollups == null ? evaluating : new RollupBackend(evaluating, rollups),
                APPENDER_MARGIN_MS,
                System::currentTimeMillis,
                RANGE_CACHE_MAX_AGE_MS,
                RANGE_CACHE_ENTRIES,
                RANGE_CACHE_POINTS),
            QUERY_THREADS));
  }

  /**
   * Joining and the pool without the cache: for a short-lived process over a remote API (the CLI),
   * whose steps are never known to be final and whose queries are not repeated.
   *
   * @throws IllegalArgumentException when {@code evaluator} is null
   */
  public static QueryBackend withoutCache(QueryBackend evaluator) {
    return new JoiningBackend(
        new ParallelBackend(new HeadroomBackend(evaluator, HeapHeadroom.jvm()), QUERY_THREADS));
  }

  /**
   * The answer of a future of a {@link QueryBackend#rangeQueryAsync}, its exception rethrown as the
   * evaluation threw it.
   *
   * @throws IllegalStateException when the waiting thread is interrupted (its flag is set again)
   */
  public static QueryResult await(CompletableFuture<QueryResult> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a query", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException(cause);
    }
  }
}
