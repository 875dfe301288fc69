package dev.infermon.promql;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.parser.Children;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.parser.VectorSelector;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.SharedSelects;
import dev.infermon.storage.Storage;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The {@link QueryBackend} over this process's own storage and engine. Thread-safe (the engine and
 * storage are); each call opens and closes its own querier.
 *
 * <p>A {@link #scope()}'s evaluations share their selects' samples before the appendable window
 * less {@link QueryStack#APPENDER_MARGIN_MS} ({@link SharedSelects}, at most {@link
 * #SCOPE_SAMPLES}), read when the scope opens; over a storage that cannot tell which samples are
 * final a scope shares nothing.
 */
public final class EmbeddedQueryBackend implements QueryBackend {
  /**
   * Samples the scopes of one backend keep at most between them (16 bytes each, 128 MB): a 6 h
   * dashboard of 100 pods at 30 s held at most 7.1 M at once (docs/benchmarks.md); a larger fleet's
   * load, or loads that run at once, share what fits.
   */
  static final long SCOPE_SAMPLES = 8_000_000;

  private final Storage storage;
  private final Queryable reads; // what evaluations read: the storage, or a scope's shared selects
  private final Engine engine;
  private final LongSupplier immutableBefore; // null: cannot tell
  private final SharedSelects.Budget scopeBudget; // every scope's, shared

  /** Over a storage that cannot tell which samples are final: {@link #immutableBefore()} empty. */
  public EmbeddedQueryBackend(Storage storage, Engine engine) {
    this(storage, engine, null);
  }

  /**
   * @param immutableBefore no sample older than this can be added to {@code storage} any more (for
   *     the TSDB, {@code Tsdb::appendableMinTime}; {@link Long#MIN_VALUE} while nothing is final);
   *     null when the storage cannot tell. Read at each {@link #immutableBefore()}.
   */
  public EmbeddedQueryBackend(Storage storage, Engine engine, LongSupplier immutableBefore) {
    if (storage == null || engine == null) {
      throw new IllegalArgumentException("storage and engine are required");
    }
    this.storage = storage;
    this.reads = storage;
    this.engine = engine;
    this.immutableBefore = immutableBefore;
    this.scopeBudget = SharedSelects.Budget.of(SCOPE_SAMPLES);
  }

  private EmbeddedQueryBackend(EmbeddedQueryBackend of, Queryable reads) {
    this.storage = of.storage;
    this.reads = reads;
    this.engine = of.engine;
    this.immutableBefore = of.immutableBefore;
    this.scopeBudget = of.scopeBudget;
  }

  /**
   * A scope whose evaluations share what they read before the appendable window (less the margin an
   * appender opened earlier may still write in), as that stands now, each selector's samples kept
   * until the last of {@code queries}' selectors with its matchers has been selected; nothing when
   * this backend cannot tell which samples are final.
   */
  @Override
  public QueryScope scope(Collection<String> queries) {
    OptionalLong bound = immutableBefore();
    if (bound.isEmpty() || bound.getAsLong() <= Long.MIN_VALUE + QueryStack.APPENDER_MARGIN_MS) {
      return QueryScope.none(this);
    }
    SharedSelects shared =
        SharedSelects.over(
            storage,
            bound.getAsLong() - QueryStack.APPENDER_MARGIN_MS - 1,
            scopeBudget,
            selectors(queries));
    return QueryScope.of(new EmbeddedQueryBackend(this, shared), shared::close);
  }

  /**
   * How many selectors of each matcher set {@code queries} hold: the selects their evaluations make
   * (one per selector; a query that does not parse makes none).
   */
  static Map<List<Matcher>, Integer> selectors(Collection<String> queries) {
    Map<List<Matcher>, Integer> out = new HashMap<>();
    ArrayDeque<Expr> todo = new ArrayDeque<>();
    for (String q : queries) {
      try {
        todo.push(PromqlParser.parse(q));
      } catch (ParseException e) {
        continue; // its evaluation fails before it selects anything
      }
      while (!todo.isEmpty()) {
        Expr e = todo.pop();
        if (e instanceof VectorSelector) {
          out.merge(((VectorSelector) e).matchers(), 1, Integer::sum);
        }
        Children.of(e).forEach(todo::push);
      }
    }
    return out;
  }

  @Override
  public OptionalLong immutableBefore() {
    if (immutableBefore == null) {
      return OptionalLong.empty();
    }
    long t = immutableBefore.getAsLong();
    return t == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(t);
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    return instantQuery(query, timeMs, engine.options().timeout());
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    return rangeQuery(query, startMs, endMs, stepMs, engine.options().timeout());
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    Expr e = parse(query);
    try {
      return engine.instantQuery(reads, e, timeMs, new AtomicBoolean(), timeout);
    } catch (IllegalArgumentException iae) {
      throw new BadQueryException(iae.getMessage());
    }
  }

  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    Expr e = parse(query);
    try {
      return engine.rangeQuery(reads, e, startMs, endMs, stepMs, new AtomicBoolean(), timeout);
    } catch (IllegalArgumentException iae) {
      throw new BadQueryException(iae.getMessage());
    }
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    if (selectors.isEmpty()) {
      throw new BadQueryException("no match[] parameter provided");
    }
    TreeSet<Labels> out = new TreeSet<>();
    try (Querier q = storage.querier()) {
      for (String sel : selectors) {
        List<Matcher> matchers = matchers(sel);
        SeriesSet set;
        try {
          set = q.select(true, startMs, endMs, matchers);
        } catch (IllegalArgumentException e) {
          throw new BadQueryException(e.getMessage());
        }
        while (set.next()) {
          out.add(set.at().labels());
        }
      }
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> labelNames(List<String> selectors, long startMs, long endMs) {
    TreeSet<String> out = new TreeSet<>();
    try (Querier q = storage.querier()) {
      if (selectors.isEmpty()) {
        out.addAll(q.labelNames(startMs, endMs, List.of()));
      }
      for (String sel : selectors) {
        out.addAll(q.labelNames(startMs, endMs, matchers(sel)));
      }
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> labelValues(String name, List<String> selectors, long startMs, long endMs) {
    TreeSet<String> out = new TreeSet<>();
    try (Querier q = storage.querier()) {
      if (selectors.isEmpty()) {
        out.addAll(q.labelValues(name, startMs, endMs, List.of()));
      }
      for (String sel : selectors) {
        out.addAll(q.labelValues(name, startMs, endMs, matchers(sel)));
      }
    }
    return new ArrayList<>(out);
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return storage.metadata(metric);
  }

  private static Expr parse(String query) {
    try {
      return PromqlParser.parse(query);
    } catch (ParseException e) {
      throw new BadQueryException(e.getMessage());
    }
  }

  private static List<Matcher> matchers(String selector) {
    try {
      return PromqlParser.parseMetricSelector(selector);
    } catch (ParseException e) {
      throw new BadQueryException(e.getMessage());
    }
  }
}
