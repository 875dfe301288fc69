package dev.infermon.promql;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.AppendWatermark;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.Storage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The {@link QueryBackend} over this process's own storage and engine. Thread-safe (the engine and
 * storage are); each call opens and closes its own querier.
 */
public final class EmbeddedQueryBackend implements QueryBackend {
  private final Storage storage;
  private final Engine engine;
  private final LongSupplier immutableBefore; // null: cannot tell
  private final AppendWatermark watermark; // null: cannot tell

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
    this(storage, engine, immutableBefore, null);
  }

  /**
   * As {@link #EmbeddedQueryBackend(Storage, Engine, LongSupplier)}, with what the storage
   * committed since a mark (the TSDB itself); null when it cannot tell.
   */
  public EmbeddedQueryBackend(
      Storage storage, Engine engine, LongSupplier immutableBefore, AppendWatermark watermark) {
    if (storage == null || engine == null) {
      throw new IllegalArgumentException("storage and engine are required");
    }
    this.storage = storage;
    this.engine = engine;
    this.immutableBefore = immutableBefore;
    this.watermark = watermark;
  }

  @Override
  public Optional<AppendWatermark> appendWatermark() {
    return Optional.ofNullable(watermark);
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
      return engine.instantQuery(storage, e, timeMs, new AtomicBoolean(), timeout);
    } catch (IllegalArgumentException iae) {
      throw new BadQueryException(iae.getMessage());
    }
  }

  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    Expr e = parse(query);
    try {
      return engine.rangeQuery(storage, e, startMs, endMs, stepMs, new AtomicBoolean(), timeout);
    } catch (IllegalArgumentException iae) {
      throw new BadQueryException(iae.getMessage());
    }
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    if (selectors.isEmpty()) {
      throw new BadQueryException("no match[] parameter provided");
    }
    if (selectors.size() == 1) {
      return series(selectors.get(0), startMs, endMs);
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

  /**
   * One selector's series: a sorted select is sorted and distinct already (a querier merging
   * several joins equal label sets), so they are listed as they come, not sorted again into a set
   * (the inventory's lookup of 600 k series spent a third of its time in that second sort).
   */
  private List<Labels> series(String selector, long startMs, long endMs) {
    List<Matcher> matchers = matchers(selector);
    List<Labels> out = new ArrayList<>();
    try (Querier q = storage.querier()) {
      SeriesSet set;
      try {
        set = q.select(true, startMs, endMs, matchers);
      } catch (IllegalArgumentException e) {
        throw new BadQueryException(e.getMessage());
      }
      Labels last = null;
      while (set.next()) {
        Labels l = set.at().labels();
        if (!l.equals(last)) { // sorted: a storage that repeats a label set repeats it in a row
          out.add(l);
          last = l;
        }
      }
    }
    return out;
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
