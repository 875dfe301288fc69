package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.Map;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * What a family did over the inventory's window, read from stored samples: 0 throughout, not 0
 * (negative, NaN throughout), or changing.
 */
class FamilyActivityTest {
  private static final long T = 1_780_000_000_000L;
  private static final long WINDOW = 10 * 60_000;

  @Test
  void aFamilyIsZeroFlatOrChangingByItsValues() {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    put(a, "vllm:num_requests_running", t -> 0);
    put(a, "vllm:num_requests_waiting", t -> -3);
    put(a, "vllm:kv_cache_usage_perc", t -> Double.NaN);
    put(a, "vllm:prompt_tokens_total", t -> (t - (T - WINDOW)) / 1000.0);
    a.commit();
    Inventory inv =
        new StoredInventory(Catalog.builtIn())
            .read(new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)), T, WINDOW);
    assertThat(inv.targets()).hasSize(1);
    Map<String, FamilyInfo> f = inv.targets().get(0).families();
    assertThat(f).containsKeys("vllm:num_requests_running", "vllm:prompt_tokens_total");
    assertThat(f.get("vllm:num_requests_running").activity()).isEqualTo(FamilyInfo.Activity.ZERO);
    assertThat(f.get("vllm:num_requests_waiting").activity()).isEqualTo(FamilyInfo.Activity.FLAT);
    // NaN throughout is "not 0" (as max_over_time != 0 or min_over_time != 0 said it)
    assertThat(f.get("vllm:kv_cache_usage_perc").activity()).isEqualTo(FamilyInfo.Activity.FLAT);
    assertThat(f.get("vllm:prompt_tokens_total").activity())
        .isEqualTo(FamilyInfo.Activity.CHANGING);
  }

  /**
   * A histogram's buckets are read only where its count and sum did not change: there a bucket that
   * changed still makes the family CHANGING, and one not 0 makes it FLAT, on its own target only
   * (its instance, quoted in the bucket query's matcher, has the regular expression's dots).
   */
  @Test
  void aHistogramsBucketsDecideWhereItsCountAndSumDoNot() {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    String ttft = "vllm:time_to_first_token_seconds";
    // 10.0.0.1:8000: count and sum held at 0, one bucket moving (a page no engine writes)
    put(a, ttft + "_count", "10.0.0.1:8000", "le", null, t -> 0);
    put(a, ttft + "_sum", "10.0.0.1:8000", "le", null, t -> 0);
    put(a, ttft + "_bucket", "10.0.0.1:8000", "le", "0.5", t -> (t - (T - WINDOW)) / 60_000);
    // 10.0.0.2:8000: count and sum 0, a bucket held at 3
    put(a, ttft + "_count", "10.0.0.2:8000", "le", null, t -> 0);
    put(a, ttft + "_sum", "10.0.0.2:8000", "le", null, t -> 0);
    put(a, ttft + "_bucket", "10.0.0.2:8000", "le", "0.5", t -> 3);
    // 10.0.0.3:8000: all 0
    put(a, ttft + "_count", "10.0.0.3:8000", "le", null, t -> 0);
    put(a, ttft + "_sum", "10.0.0.3:8000", "le", null, t -> 0);
    put(a, ttft + "_bucket", "10.0.0.3:8000", "le", "0.5", t -> 0);
    // 10.0.0.4:8000: busy, its buckets never read
    put(a, ttft + "_count", "10.0.0.4:8000", "le", null, t -> (t - (T - WINDOW)) / 60_000);
    put(a, ttft + "_sum", "10.0.0.4:8000", "le", null, t -> (t - (T - WINDOW)) / 60_000);
    put(a, ttft + "_bucket", "10.0.0.4:8000", "le", "0.5", t -> 0);
    a.commit();
    Inventory inv =
        new StoredInventory(Catalog.builtIn())
            .read(new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)), T, WINDOW);
    Map<String, FamilyInfo.Activity> byInstance = new java.util.TreeMap<>();
    for (TargetInventory t : inv.targets()) {
      byInstance.put(t.label("instance"), t.families().get(ttft).activity());
    }
    assertThat(byInstance)
        .containsExactlyEntriesOf(
            new java.util.TreeMap<>(
                Map.of(
                    "10.0.0.1:8000", FamilyInfo.Activity.CHANGING,
                    "10.0.0.2:8000", FamilyInfo.Activity.FLAT,
                    "10.0.0.3:8000", FamilyInfo.Activity.ZERO,
                    "10.0.0.4:8000", FamilyInfo.Activity.CHANGING)));
  }

  private static void put(Appender a, String name, LongToDoubleFunction value) {
    put(a, name, "p0:8000", "le", null, value);
  }

  private static void put(
      Appender a,
      String name,
      String instance,
      String extra,
      String extraValue,
      LongToDoubleFunction value) {
    Labels.Builder b =
        Labels.builder()
            .set("__name__", name)
            .set("job", "inference")
            .set("instance", instance)
            .set("namespace", "ns")
            .set("pod", instance.substring(0, instance.indexOf(':')));
    if (extraValue != null) {
      b.set(extra, extraValue);
    }
    Labels l = b.build();
    for (long t = T - WINDOW - 60_000; t <= T; t += 30_000) {
      a.append(0, l, t, value.applyAsDouble(t));
    }
  }
}
