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

  private static void put(Appender a, String name, LongToDoubleFunction value) {
    Labels l =
        Labels.builder()
            .set("__name__", name)
            .set("job", "inference")
            .set("instance", "p0:8000")
            .set("namespace", "ns")
            .set("pod", "p0")
            .build();
    for (long t = T - WINDOW - 60_000; t <= T; t += 30_000) {
      a.append(0, l, t, value.applyAsDouble(t));
    }
  }
}
