package dev.infermon.promql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import dev.infermon.storage.MergeQuerier;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Storage;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The series lookup of one selector lists a sorted select as it comes: sorted and distinct, as the
 * lookup of several selectors (a sorted set) is, over two stores that hold the same series.
 */
class EmbeddedSeriesTest {
  @Test
  void oneSelectorsSeriesAreSortedAndDistinctOverMergedStores() {
    MemoryStorage head = new MemoryStorage();
    MemoryStorage block = new MemoryStorage();
    for (String pod : List.of("c", "a", "b")) {
      for (String name : List.of("y", "x")) {
        append(head, Labels.of("__name__", name, "pod", pod), 2000);
        append(block, Labels.of("__name__", name, "pod", pod), 1000);
      }
    }
    append(block, Labels.of("__name__", "x", "pod", "old"), 1000);
    Storage merged = new Merged(head, block);
    EmbeddedQueryBackend b = new EmbeddedQueryBackend(merged, new Engine(EngineOptions.DEFAULTS));
    List<Labels> one = b.series(List.of("{__name__=~\"x|y\"}"), 0, 3000);
    assertThat(one).hasSize(7).isSorted().doesNotHaveDuplicates();
    assertThat(one).isEqualTo(new java.util.ArrayList<>(new TreeSet<>(one)));
    assertThat(one).isEqualTo(b.series(List.of("{__name__=\"x\"}", "{__name__=\"y\"}"), 0, 3000));
    assertThat(b.series(List.of("{__name__=~\"x|y\"}"), 1500, 3000)).hasSize(6);
    assertThatThrownBy(() -> b.series(List.of("{pod=~\".*\"}"), 0, 3000))
        .isInstanceOf(BadQueryException.class);
  }

  private static void append(MemoryStorage s, Labels l, long t) {
    Appender a = s.appender();
    a.append(0, l, t, 1);
    a.commit();
  }

  /** Two stores read as one, as the TSDB merges its head and blocks. */
  private record Merged(MemoryStorage first, MemoryStorage second) implements Storage {
    @Override
    public Appender appender() {
      return first.appender();
    }

    @Override
    public Querier querier() {
      return MergeQuerier.of(List.of(first.querier(), second.querier()));
    }

    @Override
    public Map<String, List<Metadata>> metadata(String metric) {
      return first.metadata(metric);
    }

    @Override
    public long startTime() {
      return second.startTime();
    }

    @Override
    public void close() {}
  }
}
