package dev.infermon.simulator.triton;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.TritonPod;
import dev.infermon.simulator.model.EngineState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulated Triton page has the shape of the tensorrtllm backend README's sample page ("Triton
 * Metrics",
 * https://docs.nvidia.com/deeplearning/triton-inference-server/user-guide/docs/tensorrtllm_backend/README.html;
 * {@code triton/backend-readme-sample.prom}, a documentation sample, not a capture): every HELP,
 * TYPE and series of the sample is on it, with the same label names in the same (sorted) order,
 * integral values written without a fraction; the backend's families come in the order the reporter
 * at 0d5352f5 creates them, with the children it has and the sample lacks; and its values are what
 * the simulated server counted.
 */
class TritonPageTest {
  private static Fleet fleet;
  private static TritonPod pod;

  @BeforeAll
  static void run() {
    fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .tritonPods(1)
                .build(),
            1_780_000_000_000L);
    fleet.advance(Duration.ofMinutes(4));
    for (InferencePod p : fleet.pods()) {
      pod = (TritonPod) p;
    }
  }

  private static String page() {
    return fleet.render(pod.info().name()).orElseThrow();
  }

  private static String sample() throws IOException {
    try (InputStream in =
        TritonPageTest.class.getResourceAsStream("/triton/backend-readme-sample.prom")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A series line's name and label names, in their order, without values. */
  private static String shape(String line) {
    String series = line.substring(0, line.lastIndexOf(' '));
    return series.replaceAll("=\"[^\"]*\"", "");
  }

  /** The label set of a series line, values included, without the sample value. */
  private static String series(String line) {
    return line.substring(0, line.lastIndexOf(' '));
  }

  @Test
  void everyLineOfTheReadmeSampleIsThere() throws IOException {
    String page = page();
    List<String> series = new ArrayList<>();
    for (String line : page.split("\n")) {
      if (!line.startsWith("#")) {
        series.add(series(line));
      }
    }
    for (String line : sample().split("\n")) {
      if (line.startsWith("#")) {
        assertThat(page).as("the sample's metadata").contains(line + "\n");
      } else if (line.startsWith("nv_inference_request_failure{")) {
        // the sample predates the failure reason (server#7583's 24.08 page has it)
        assertThat(series)
            .contains(series(line).replace(",version=", ",reason=\"BACKEND\",version="));
      } else {
        assertThat(series).as("the sample's series").contains(series(line));
      }
    }
  }

  @Test
  void layoutIsPrometheusCpps() {
    String page = page();
    for (String line : page.split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      // Triton's counters carry no _total; no _created series
      assertThat(line.substring(0, line.indexOf(line.contains("{") ? '{' : ' ')))
          .as(line)
          .doesNotEndWith("_total")
          .doesNotEndWith("_created");
      String value = line.substring(line.lastIndexOf(' ') + 1);
      // integral values without a fraction: "512", not "512.0"
      assertThat(value).as(line).matches("[0-9]+|[0-9]*\\.[0-9]*[1-9]");
      String labels =
          line.contains("{") ? line.substring(line.indexOf('{') + 1, line.indexOf('}')) : "";
      List<String> names = new ArrayList<>();
      for (String pair : labels.split(",")) {
        if (!pair.isEmpty()) {
          names.add(pair.substring(0, pair.indexOf('=')));
        }
      }
      if (line.contains("_bucket{")) {
        // le last, after the sorted labels (text_serializer.cc WriteHead's extra label)
        assertThat(names.get(names.size() - 1)).isEqualTo("le");
        names.remove(names.size() - 1);
      }
      assertThat(names).as(line).isSortedAccordingTo(String::compareTo);
    }
    assertThat(page)
        .contains(
            "nv_llm_input_token_len_bucket{model=\"tensorrt_llm\",response_metric_type="
                + "\"total_input_tokens\",version=\"1\",le=\"+Inf\"} ");
  }

  @Test
  void backendFamiliesFollowTheReporter() {
    String page = page();
    List<String> families = new ArrayList<>();
    for (String line : page.split("\n")) {
      if (line.startsWith("# TYPE nv_trt_llm_") || line.startsWith("# TYPE nv_llm_")) {
        families.add(line.split(" ")[2]);
      }
    }
    assertThat(families)
        .containsExactly(
            "nv_trt_llm_request_metrics",
            "nv_trt_llm_runtime_memory_metrics",
            "nv_trt_llm_kv_cache_block_metrics",
            "nv_trt_llm_disaggregated_serving_metrics",
            "nv_trt_llm_inflight_batcher_metrics",
            "nv_trt_llm_general_metrics",
            "nv_llm_output_token_len",
            "nv_llm_input_token_len");
    TreeSet<String> kv = new TreeSet<>();
    for (String line : page.split("\n")) {
      if (line.startsWith("nv_trt_llm_kv_cache_block_metrics{")) {
        kv.add(line.replaceAll(".*kv_cache_block_type=\"([a-z_]+)\".*", "$1"));
      }
    }
    // reporter @ 0d5352f5's kv_cache_labels_
    assertThat(kv)
        .containsExactlyInAnyOrder("max", "free", "used", "tokens_per", "reused", "fraction");
  }

  @Test
  void valuesAreTheServers() {
    TritonMetrics m = pod.metrics();
    assertThat(m.success()).isPositive();
    Map<String, Double> v = values(page());
    String trt = "{model=\"tensorrt_llm\",version=\"1\"}";
    assertThat(v.get("nv_inference_request_success" + trt)).isEqualTo((double) m.success());
    assertThat(v.get("nv_inference_request_success{model=\"ensemble\",version=\"1\"}"))
        .isEqualTo((double) m.success());
    double failed = 0;
    for (Map.Entry<String, Double> e : v.entrySet()) {
      if (e.getKey().startsWith("nv_inference_request_failure{model=\"tensorrt_llm\"")) {
        failed += e.getValue();
      }
    }
    assertThat(failed).isEqualTo((double) m.failures());
    EngineState s = pod.engines().get(0).state();
    String kv =
        "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=\"%s\",model=\"tensorrt_llm\",version=\"1\"}";
    assertThat(v.get(kv.formatted("max"))).isEqualTo((double) s.totalBlocks());
    assertThat(v.get(kv.formatted("used"))).isEqualTo((double) s.usedBlocks());
    assertThat(v.get(kv.formatted("fraction"))).isEqualTo(s.kvUsage());
    assertThat(
            v.get(
                "nv_trt_llm_request_metrics{model=\"tensorrt_llm\",request_type=\"max\",version=\"1\"}"))
        .isEqualTo((double) pod.profile().params().maxNumSeqs());
    assertThat(
            v.get(
                "nv_trt_llm_general_metrics{general_type=\"iteration_counter\",model=\"tensorrt_llm\",version=\"1\"}"))
        .isEqualTo((double) m.iterations())
        .isPositive();
    // the last statistics' time, in microseconds (reporter @ 0d5352f5)
    assertThat(
            v.get(
                "nv_trt_llm_general_metrics{general_type=\"timestamp\",model=\"tensorrt_llm\",version=\"1\"}"))
        .isBetween(1_780_000_000e6, 1_780_000_241e6);
  }

  private static Map<String, Double> values(String page) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String line : page.split("\n")) {
      if (!line.startsWith("#")) {
        out.put(series(line), Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return out;
  }

  @Test
  void formatsLikeTheSample() {
    assertThat(TritonFloat.format(512)).isEqualTo("512");
    assertThat(TritonFloat.format(0.4875)).isEqualTo("0.4875");
    assertThat(TritonFloat.format(1_700_074_049)).isEqualTo("1700074049");
    assertThat(TritonFloat.format(1_780_000_123_456_789.0)).isEqualTo("1780000123456789");
    assertThat(TritonFloat.format(0)).isEqualTo("0");
    assertThat(shape("a{b=\"1\",c=\"2\"} 3")).isEqualTo("a{b,c}");
  }
}
