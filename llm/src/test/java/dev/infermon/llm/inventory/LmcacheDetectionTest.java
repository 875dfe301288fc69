package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import org.junit.jupiter.api.Test;

/**
 * LMCache runs inside the vLLM process: a vLLM page that carries its lmcache: families is still a
 * vLLM pod (LMCache's names know no release of their own and cast no vote), even when LMCache's
 * families outnumber vLLM's, and every LMCache name on it is known.
 */
class LmcacheDetectionTest {
  static final Catalog CATALOG = Catalog.builtIn();
  static final EngineDetector DETECTOR = new EngineDetector(CATALOG);

  static final String LMCACHE =
      "lmcache:num_retrieve_requests_total lmcache:num_store_requests_total"
          + " lmcache:num_lookup_requests_total lmcache:num_requested_tokens_total"
          + " lmcache:num_hit_tokens_total lmcache:num_stored_tokens_total"
          + " lmcache:num_lookup_tokens_total lmcache:num_lookup_hits_total"
          + " lmcache:retrieve_hit_rate lmcache:lookup_hit_rate lmcache:local_cache_usage"
          + " lmcache:time_to_retrieve lmcache:time_to_store lmcache:retrieve_speed";

  @Test
  void aVllmPageWithLmcacheStaysVllm() {
    Detection d =
        DETECTOR.detect(
            SpellingDetectionTest.families(
                "vllm:num_requests_running vllm:num_requests_waiting vllm:kv_cache_usage_perc "
                    + LMCACHE));
    assertThat(d.engine()).isEqualTo("vllm");
    assertThat(d.spelling().key()).isEqualTo("vllm/vllm:");
    assertThat(d.unknownFamilies()).isEmpty();
    for (String f : LMCACHE.split(" ")) {
      assertThat(CATALOG.identifyFamily(f)).as(f).isPresent();
      assertThat(CATALOG.identifyFamily(f).get().engine().engine()).as(f).isEqualTo("lmcache");
    }
  }

  @Test
  void lmcacheAloneIsNoEngine() {
    assertThat(DETECTOR.detect(SpellingDetectionTest.families(LMCACHE)).engine())
        .isEqualTo(Detection.UNKNOWN);
  }

  @Test
  void theIntervalHitRateGaugesPointAtTheCounters() {
    var lmc = CATALOG.engine("lmcache");
    var v = lmc.version("0353be82").orElseThrow();
    assertThat(lmc.entry("retrieve_hit_rate", v).orElseThrow().avoid().use().get(0).metrics())
        .containsExactly("num_hit_tokens_total", "num_requested_tokens_total");
  }
}
