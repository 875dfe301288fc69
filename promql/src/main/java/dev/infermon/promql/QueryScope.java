package dev.infermon.promql;

/**
 * Queries asked together, such as the panels of one dashboard load, through {@link #backend()}: a
 * view of the backend that opened the scope ({@link QueryBackend#scope}) whose evaluations may
 * share what they read of data that cannot change while the scope is open (the embedded engine
 * decodes the TSDB's samples before its appendable window once per distinct select). Answers are
 * the backend's own: what a query reads of data that can still change is read at its evaluation.
 *
 * <p>Ownership: the opener closes the scope once its queries are answered; what the scope holds is
 * dropped then. A query still running after the close finishes as without the scope. Close is
 * idempotent. The view is thread-safe, as the backend is.
 */
public final class QueryScope implements AutoCloseable {
  private final QueryBackend backend;
  private final Runnable onClose;

  private QueryScope(QueryBackend backend, Runnable onClose) {
    this.backend = backend;
    this.onClose = onClose;
  }

  /**
   * A scope whose queries go through {@code backend}; {@code onClose} releases what it holds.
   *
   * @throws IllegalArgumentException when either is null
   */
  public static QueryScope of(QueryBackend backend, Runnable onClose) {
    if (backend == null || onClose == null) {
      throw new IllegalArgumentException("a scope needs a backend and a close action");
    }
    return new QueryScope(backend, onClose);
  }

  /** A scope that shares nothing: its queries go to {@code backend} itself. */
  public static QueryScope none(QueryBackend backend) {
    return of(backend, () -> {});
  }

  /**
   * A decorator's scope: {@code view} (the decorator over this scope's backend) closed as this one.
   */
  public QueryScope above(QueryBackend view) {
    return of(view, onClose);
  }

  /** Where the scope's queries go. */
  public QueryBackend backend() {
    return backend;
  }

  @Override
  public void close() {
    onClose.run();
  }
}
