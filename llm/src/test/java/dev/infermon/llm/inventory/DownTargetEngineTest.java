package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A target that is down exposes nothing but {@code up}: its {@code backend} label, as discovery
 * sets it, names the engine, for every engine of the catalog and the prefill/decode backends.
 */
class DownTargetEngineTest {
  static final long T = 1_790_000_000_000L;

  @ParameterizedTest(name = "backend={0} -> {1}")
  @CsvSource({
    "vllm, vllm",
    "vllm-pd, vllm",
    "sglang, sglang",
    "sglang-pd, sglang",
    "tgi, tgi",
    "llamacpp, llamacpp",
    "trtllm, trtllm",
    "triton, triton",
    "dynamo, dynamo",
    "lmcache, lmcache",
    "dcgm, dcgm",
    "amdgpu, amdgpu",
    "production-stack, unknown",
    "vllmish, unknown"
  })
  void theBackendLabelNamesTheEngineOfADownTarget(String backend, String engine) {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    for (int i = 0; i < 10; i++) {
      a.append(
          0,
          Labels.of(
              "__name__",
              "up",
              "job",
              "inference",
              "instance",
              "p:8000",
              "backend",
              backend,
              "namespace",
              "n",
              "pod",
              "p"),
          T + i * 15_000L,
          0);
    }
    a.commit();
    InventoryService s =
        new InventoryService(
            Catalog.builtIn(),
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)));
    Inventory inv = s.inventory(T + 135_000, 300_000);
    assertThat(inv.targets()).hasSize(1);
    assertThat(inv.targets().get(0).up()).isFalse();
    assertThat(inv.targets().get(0).engine()).isEqualTo(engine);
  }
}
