package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.testing.Captures;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each target's spelling as the inventory tells it from its family names, and names that match no
 * engine but are an engine's names in a spelling the catalog does not know (reported with the
 * spelling to use).
 */
class SpellingDetectionTest {
  static final EngineDetector DETECTOR = new EngineDetector(Catalog.builtIn());

  static Set<String> families(String spaceSeparated) {
    return new LinkedHashSet<>(Arrays.asList(spaceSeparated.trim().split("\\s+")));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # families                                                                         | engine  | spelling        | lookalike: engine, seen prefix, use
          vllm:num_requests_running vllm:num_requests_waiting vllm:kv_cache_usage_perc         | vllm    | vllm/vllm:      | -
          ray_vllm:num_requests_running ray_vllm:num_requests_waiting ray_vllm:gpu_cache_usage_perc | vllm | vllm/ray_vllm: | -
          num_requests_running num_requests_waiting gpu_cache_usage_perc prompt_tokens_total  | vllm    | vllm/           | -
          sglang:num_running_reqs sglang:num_queue_reqs sglang:token_usage                     | sglang  | sglang/sglang:  | -
          sglang_num_running_reqs sglang_num_queue_reqs sglang_token_usage                     | sglang  | sglang/sglang_  | -
          vllm_num_requests_running vllm_num_requests_waiting vllm_gpu_cache_usage_perc        | unknown | -               | vllm vllm_ vllm/vllm:
          num_running_reqs num_queue_reqs token_usage                                          | unknown | -               | sglang none sglang/sglang:
          team_sglang:num_running_reqs team_sglang:num_queue_reqs team_sglang:token_usage      | unknown | -               | sglang team_sglang: sglang/sglang:
          tgi_queue_size tgi_batch_current_size tgi_request_count                              | tgi     | tgi/tgi_        | -
          tgi:queue_size tgi:batch_current_size tgi:request_success                            | unknown | -               | tgi tgi: tgi/tgi_
          prompt_tokens_total generation_tokens_total                                          | unknown | -               | -
          http_requests_total node_cpu_seconds_total                                           | unknown | -               | -
          """)
  void spellingOfATarget(String names, String engine, String spelling, String lookalike) {
    Detection d = DETECTOR.detect(families(names));
    assertThat(d.engine()).isEqualTo(engine);
    assertThat(d.spelling() == null ? null : d.spelling().key()).isEqualTo(spelling);
    if (lookalike == null) {
      assertThat(d.lookalike()).isNull();
    } else {
      String[] l = lookalike.split(" ");
      assertThat(d.lookalike()).isNotNull();
      assertThat(d.lookalike().engine()).isEqualTo(l[0]);
      assertThat(d.lookalike().seenPrefix()).isEqualTo(l[1].equals("none") ? "" : l[1]);
      assertThat(d.lookalike().use().key()).isEqualTo(l[2]);
      assertThat(d.lookalike().message())
          .contains("relabel them to " + d.lookalike().use().label());
    }
  }

  @Test
  void nvidiaNimCaptureIsAVllmCompatibleEngineWithoutPrefix() throws Exception {
    Captures.Entry nim = Captures.get("nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt");
    Detection d = DETECTOR.detect(PageFamilies.parse(nim.bytes(), null).keySet());
    assertThat(d.engine()).isEqualTo("vllm");
    assertThat(d.prefix()).isEmpty();
    assertThat(d.spelling().label()).isEqualTo("(no prefix)");
    // V0 names (gpu_cache_usage_perc, no _created series): a release before the V1 rename
    assertThat(d.versions()).isNotNull();
    assertThat(d.versions().last().name()).isNotEqualTo("0.33");
  }

  @Test
  void tgiCaptureIsTgi() throws Exception {
    Captures.Entry tgi = Captures.get("tgi-2.4-3.x_datadog-e2e.txt");
    Detection d = DETECTOR.detect(PageFamilies.parse(tgi.bytes(), null).keySet());
    assertThat(d.engine()).isEqualTo("tgi");
    assertThat(d.spelling().key()).isEqualTo("tgi/tgi_");
    assertThat(d.unknownFamilies()).isEmpty();
  }

  @Test
  void rayCaptureIsSpeltRayVllm() throws Exception {
    Captures.Entry ray = Captures.get("vllm-v0-ray2.32-serve_rayprefix.txt");
    Detection d = DETECTOR.detect(PageFamilies.parse(ray.bytes(), null).keySet());
    assertThat(d.spelling().key()).isEqualTo("vllm/ray_vllm:");
  }
}
