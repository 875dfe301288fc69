package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.EngineDetector;
import dev.infermon.llm.inventory.PageFamilies;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * TensorRT-LLM 1.0 wrote four of its five families under vLLM's own names without a prefix, as
 * NVIDIA NIM does: the {@code engine_type} label on every series tells them apart (the catalog's
 * {@code required_labels}). The pages are written in the layout of #5785's sample output, with the
 * values shortened; they are not captures.
 */
class TrtllmSpellingTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  private static String page(String labels) {
    StringBuilder sb = new StringBuilder();
    for (String h :
        new String[] {
          "e2e_request_latency_seconds", "time_to_first_token_seconds",
          "time_per_output_token_seconds", "request_queue_time_seconds"
        }) {
      sb.append("# HELP ")
          .append(h)
          .append(" Histogram.\n# TYPE ")
          .append(h)
          .append(" histogram\n");
      sb.append(h).append("_sum{").append(labels).append("} 3.4878239994868636\n");
      sb.append(h).append("_bucket{").append(labels).append(",le=\"+Inf\"} 2.0\n");
      sb.append(h).append("_count{").append(labels).append("} 2.0\n");
    }
    sb.append("# HELP request_success_total Count of successfully processed requests.\n")
        .append("# TYPE request_success_total counter\n")
        .append("request_success_total{")
        .append(labels)
        .append(",finished_reason=\"stop\"} 2.0\n");
    return sb.toString();
  }

  private static Detection detect(String page) throws Exception {
    return new EngineDetector(CATALOG)
        .detect(PageFamilies.parse(page.getBytes(StandardCharsets.UTF_8), null));
  }

  @Test
  void engineTypeMakesTheUnprefixedNamesTensorRtLlms() throws Exception {
    Detection d = detect(page("engine_type=\"undefined\",model_name=\"undefined\""));
    assertThat(d.engine()).isEqualTo("trtllm");
    assertThat(d.prefix()).isEmpty();
  }

  @Test
  void withoutEngineTypeTheyStayNims() throws Exception {
    Detection d = detect(page("model_name=\"meta/llama-3.1-8b-instruct\""));
    assertThat(d.engine()).isEqualTo("vllm");
    assertThat(d.prefix()).isEmpty();
  }
}
