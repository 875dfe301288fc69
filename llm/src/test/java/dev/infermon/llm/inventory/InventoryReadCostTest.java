package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.Storage;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What one inventory read of a simulated fleet selects from the storage, by count: the series
 * lookup and {@code up} once, and the two activity subqueries only the series of the families whose
 * activity something reads ({@link ActivityFamilies}), never every engine and GPU exporter series
 * again. Fails when the activity queries go back to the series read's whole selection.
 */
class InventoryReadCostTest {
  private static final long START = 1_780_000_000_000L;
  private static final long WINDOW = 10 * 60_000;

  @Test
  void theActivityQueriesSelectOnlyTheFamiliesWhoseActivityIsRead() {
    MemoryStorage memory = new MemoryStorage();
    Fleet fleet = Fleet.create(FleetConfig.builder().build(), START);
    new FleetScrape(memory, false).run(fleet, Duration.ofMinutes(15));
    CountingStorage counting = new CountingStorage(memory);
    Catalog catalog = Catalog.builtIn();
    Inventory inv =
        new StoredInventory(catalog)
            .read(
                new EmbeddedQueryBackend(counting, new Engine(EngineOptions.DEFAULTS)),
                fleet.nowMillis(),
                WINDOW);
    assertThat(inv.targets()).isNotEmpty();

    Select lookup = null;
    Select up = null;
    List<Select> activity = new ArrayList<>();
    for (Select s : counting.selects) {
      if (s.matchers.equals("[__name__=\"up\"]")) {
        up = s;
      } else if (lookup == null) {
        lookup = s; // the read looks the series up before it asks what they did
      } else {
        activity.add(s);
      }
    }
    assertThat(lookup).as("the series lookup's select").isNotNull();
    assertThat(up).as("up's select").isNotNull();
    assertThat(activity).as("the activity subqueries' selects").isNotEmpty().hasSizeLessThan(4);
    ActivityFamilies read = ActivityFamilies.of(catalog);
    long readable = lookup.names.stream().filter(read.sampleNames()::contains).count();
    long selected = activity.stream().mapToLong(s -> s.names.size()).sum();
    System.out.printf(
        "inventory read: %d selects, %d series (lookup %d, up %d, activity %s of %d read)%n",
        counting.selects.size(),
        lookup.names.size() + up.names.size() + selected,
        lookup.names.size(),
        up.names.size(),
        activity.stream().map(s -> String.valueOf(s.names.size())).toList(),
        readable);
    for (Select s : activity) {
      assertThat(s.names).allMatch(read.sampleNames()::contains);
    }
    // GPU exporter fields and unread engine families are a third of the fleet's series, and a busy
    // target's histogram buckets are not read again once its count changed: the activity queries
    // select fewer series than one pass over the read families (the full read selected every
    // series twice, one pass over the read families twice)
    assertThat(readable).isLessThan(lookup.names.size() * 3L / 4);
    assertThat(selected).isLessThan(readable);
  }

  /** One select: its matchers and the names of the series it yielded. */
  private record Select(String matchers, List<String> names) {}

  /** A storage that records each select and the series it yields. */
  private static final class CountingStorage implements Storage {
    private final Storage delegate;
    final List<Select> selects = new ArrayList<>();

    CountingStorage(Storage delegate) {
      this.delegate = delegate;
    }

    @Override
    public Appender appender() {
      return delegate.appender();
    }

    @Override
    public Querier querier() {
      Querier q = delegate.querier();
      return new Querier() {
        @Override
        public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
          Select mine = new Select(matchers.toString(), new ArrayList<>());
          synchronized (selects) {
            selects.add(mine);
          }
          SeriesSet set = q.select(sorted, mint, maxt, matchers);
          return new SeriesSet() {
            @Override
            public boolean next() {
              boolean more = set.next();
              if (more) {
                mine.names.add(set.at().labels().get("__name__"));
              }
              return more;
            }

            @Override
            public Series at() {
              return set.at();
            }

            @Override
            public List<String> warnings() {
              return set.warnings();
            }
          };
        }

        @Override
        public boolean mayHaveSamplesIn(long mint, long maxt) {
          return q.mayHaveSamplesIn(mint, maxt);
        }

        @Override
        public List<String> labelValues(String name, long mint, long maxt, List<Matcher> m) {
          return q.labelValues(name, mint, maxt, m);
        }

        @Override
        public List<String> labelNames(long mint, long maxt, List<Matcher> m) {
          return q.labelNames(mint, maxt, m);
        }

        @Override
        public void close() {
          q.close();
        }
      };
    }

    @Override
    public Map<String, List<Metadata>> metadata(String metric) {
      return delegate.metadata(metric);
    }

    @Override
    public long startTime() {
      return delegate.startTime();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
