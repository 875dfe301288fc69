package dev.infermon.promql.engine;

import dev.infermon.promql.QueryCanceledException;
import dev.infermon.promql.QueryTimeoutException;
import dev.infermon.promql.TooManySamplesException;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.Annotations;
import dev.infermon.storage.Querier;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one query's evaluation shares across nested evaluators: the querier, the limits, the
 * annotations and the sample count. Used by the query's thread only (the cancel flag may be set
 * from another thread).
 */
final class QueryContext {
  final Querier querier;
  final EngineOptions options;
  final long lookbackMs;
  final boolean delayedNameRemoval;
  final long queryStart;
  final long queryEnd;

  /** The range query's step, 0 for an instant query. */
  long queryStep;

  private final long deadlineNanos;
  private final AtomicBoolean canceled;
  final Annotations.Collector annotations = new Annotations.Collector();
  private int checks;

  /** Samples currently held, as Prometheus counts them for {@code --query.max-samples}. */
  int currentSamples;

  QueryContext(
      Querier querier,
      EngineOptions options,
      long queryStart,
      long queryEnd,
      long deadlineNanos,
      AtomicBoolean canceled) {
    this.querier = querier;
    this.options = options;
    this.lookbackMs = options.lookbackDelta().toMillis();
    this.delayedNameRemoval = options.delayedNameRemoval();
    this.queryStart = queryStart;
    this.queryEnd = queryEnd;
    this.deadlineNanos = deadlineNanos;
    this.canceled = canceled;
  }

  /** Throws when the query ran out of time or was canceled; cheap enough to call per step. */
  void checkDeadline() {
    if ((++checks & 63) != 0) {
      return;
    }
    checkDeadlineNow();
  }

  void checkDeadlineNow() {
    if (canceled.get()) {
      throw new QueryCanceledException("expression evaluation");
    }
    if (System.nanoTime() - deadlineNanos > 0) {
      throw new QueryTimeoutException("expression evaluation");
    }
  }

  void addSamples(int n) {
    currentSamples += n;
    if (currentSamples > options.maxSamples()) {
      throw new TooManySamplesException("query execution");
    }
  }

  /** Throws as {@link #addSamples} would if {@code samples} were held at once. */
  void checkHeld(long samples) {
    if (samples > options.maxSamples()) {
      throw new TooManySamplesException("query execution");
    }
  }

  void warn(String text) {
    annotations.add(Annotation.warning(text));
  }

  void info(String text) {
    annotations.add(Annotation.info(text));
  }
}
