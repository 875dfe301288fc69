package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.signals.Signal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What an empty KV-offload (LMCache) panel says of a vLLM pod without LMCache, by the pod's vLLM
 * release (lmcache.yaml's absent_on bands): a release before any LMCache connector says it has none
 * and from which release there is one, vLLM 0.8 names both connectors with their releases, a newer
 * one LMCacheConnectorV1; an NVIDIA Dynamo vLLM worker (DYN_SYSTEM_PORT among its features) names
 * the worker's own switches, with the Dynamo releases that had each.
 */
class LmcacheReasonBandsTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  @ParameterizedTest(name = "{0}..{1} {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # first | last | features        | kind        | engine  | version | the reason says                                  | and
          0.4     | 0.4  | -               | NOT_EXPOSED | vllm    | 0.8     | this vLLM release has no LMCache connector       | LMCacheConnectorV1 from 0.8.5
          0.6     | 0.7  | -               | NOT_EXPOSED | vllm    | 0.8     | has no LMCache connector                         | in 0.7.3 not read
          0.7     | 0.7  | -               | NOT_EXPOSED | vllm    | 0.8     | vLLM 0.7 has no LMCacheConnectorV1               | in 0.7.3 not read
          0.8     | 0.8  | -               | BEHIND_FLAG | lmcache | -       | LMCacheConnectorV1 from vLLM 0.8.5               | LMCacheConnector
          0.11    | 0.33 | -               | BEHIND_FLAG | lmcache | -       | no LMCache on these vLLM pods                    | LMCacheConnectorV1
          0.7     | 0.9  | -               | BEHIND_FLAG | lmcache | -       | vLLM 0.7 has no LMCacheConnectorV1               | LMCacheConnectorV1 from vLLM 0.8.5
          0.11    | 0.33 | DYN_SYSTEM_PORT | BEHIND_FLAG | lmcache | -       | ENABLE_LMCACHE=1 (Dynamo v0.7.0, v0.7.1)         | --connector lmcache (v0.8.0
          """)
  void theReasonIsTheReleasesOwn(
      String first,
      String last,
      String features,
      String kind,
      String engine,
      String version,
      String says,
      String alsoSays) {
    EngineCatalog vllm = CATALOG.engine("vllm");
    EngineCatalog lmcache = CATALOG.engine("lmcache");
    ReleaseRange range =
        new ReleaseRange(vllm.version(first).orElseThrow(), vllm.version(last).orElseThrow());
    Detection d =
        new Detection(
            "vllm",
            "vllm:",
            range,
            features == null ? List.of() : List.of(features),
            List.of(),
            null,
            null);
    TargetInventory t = new TargetInventory(Map.of("pod", "p"), true, d, Map.of());
    Signal s = Signal.KV_OFFLOAD_LOOKUP_TOKENS;
    EmptyReason r =
        new EngineReasons(lmcache, t)
            .explainHosted(
                s, lmcache.sources(s), t, vllm, CATALOG.servedThrough(d.features(), d.engine()));
    assertThat(r.kind()).as("%s", r).isEqualTo(EmptyReason.Kind.valueOf(kind));
    assertThat(r.engine()).isEqualTo(engine);
    assertThat(r.version()).isEqualTo(version);
    assertThat(r.message()).contains(says).contains(alsoSays);
  }
}
