package dev.infermon.promql.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Identical queries in flight share one evaluation, counted where evaluations reach the engine; its
 * answer or its exception reaches every joined caller; nothing is kept once it ended.
 */
class JoiningBackendTest {
  private static final long T = 1_780_000_000_000L;

  private final MemoryStorage storage = new MemoryStorage();
  private final QueryBackend engine =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
  private final CountingBackend counting = new CountingBackend(engine, null);
  private final ExecutorService callers = Executors.newFixedThreadPool(2);

  JoiningBackendTest() {
    Appender app = storage.appender();
    for (int i = 0; i < 40; i++) {
      app.append(0, Labels.of("__name__", "up", "pod", "p" + (i % 4)), T + i * 15_000L, i);
    }
    app.commit();
  }

  @AfterEach
  void stop() {
    callers.shutdownNow();
  }

  /** Two callers ask the same query while the first is held in the engine; then the gate opens. */
  private List<Future<QueryResult>> twoCallers(QueryBackend joined, String query) throws Exception {
    counting.close();
    List<Future<QueryResult>> out = new ArrayList<>();
    out.add(callers.submit(() -> joined.rangeQuery(query, T, T + 600_000, 60_000)));
    assertThat(counting.entered.await(10, TimeUnit.SECONDS)).isTrue();
    out.add(callers.submit(() -> joined.rangeQuery(query, T, T + 600_000, 60_000)));
    Thread.sleep(200); // the second caller reaches the join
    counting.open();
    return out;
  }

  @Test
  void twoConcurrentIdenticalQueriesAreOneEvaluation() throws Exception {
    JoiningBackend joined = new JoiningBackend(counting);
    List<Future<QueryResult>> f = twoCallers(joined, "sum(up)");
    QueryResult a = f.get(0).get(10, TimeUnit.SECONDS);
    QueryResult b = f.get(1).get(10, TimeUnit.SECONDS);
    assertThat(counting.evaluations()).isEqualTo(1);
    assertThat(b).isSameAs(a);
    assertThat(a).isEqualTo(engine.rangeQuery("sum(up)", T, T + 600_000, 60_000));
    // ended: the same query is evaluated again, and another range is another query
    joined.rangeQuery("sum(up)", T, T + 600_000, 60_000);
    joined.rangeQuery("sum(up)", T, T + 540_000, 60_000);
    assertThat(counting.evaluations()).isEqualTo(3);
  }

  @Test
  void anErrorReachesEveryJoinedCaller() throws Exception {
    JoiningBackend joined = new JoiningBackend(counting);
    List<Future<QueryResult>> f = twoCallers(joined, "sum(up");
    List<Throwable> thrown = new ArrayList<>();
    for (Future<QueryResult> one : f) {
      try {
        one.get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        thrown.add(e.getCause());
      }
    }
    assertThat(thrown)
        .hasSize(2)
        .allSatisfy(e -> assertThat(e).isInstanceOf(BadQueryException.class));
    assertThat(counting.evaluations()).isEqualTo(1);
    // the failure is not kept: the next caller evaluates, and fails, on its own
    assertThatThrownBy(() -> joined.rangeQuery("sum(up", T, T + 600_000, 60_000))
        .isInstanceOf(BadQueryException.class);
    assertThat(counting.evaluations()).isEqualTo(2);
  }

  @Test
  void theStackJoinsAsynchronousQueriesBeforeThePool() throws Exception {
    QueryBackend stack = QueryStack.withoutCache(counting);
    counting.close();
    CompletableFuture<QueryResult> a = stack.rangeQueryAsync("sum(up)", T, T + 600_000, 60_000);
    CompletableFuture<QueryResult> b = stack.rangeQueryAsync("sum(up)", T, T + 600_000, 60_000);
    CompletableFuture<QueryResult> bad = stack.rangeQueryAsync("sum(up", T, T + 600_000, 60_000);
    CompletableFuture<QueryResult> bad2 = stack.rangeQueryAsync("sum(up", T, T + 600_000, 60_000);
    // a synchronous caller joins the evaluation in flight on the pool
    Future<QueryResult> sync =
        callers.submit(() -> stack.rangeQuery("sum(up)", T, T + 600_000, 60_000));
    Thread.sleep(200);
    counting.open();
    assertThat(QueryStack.await(a))
        .isSameAs(QueryStack.await(b))
        .isSameAs(sync.get(10, TimeUnit.SECONDS));
    assertThatThrownBy(() -> QueryStack.await(bad)).isInstanceOf(BadQueryException.class);
    assertThatThrownBy(() -> QueryStack.await(bad2)).isInstanceOf(BadQueryException.class);
    assertThat(counting.evaluations()).isEqualTo(2);
  }
}
