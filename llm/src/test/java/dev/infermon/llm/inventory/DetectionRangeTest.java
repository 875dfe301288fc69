package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The release range each real capture is detected in, with what narrows it: labels the catalog
 * dates (sglang.md §1.2) and families written together (a complete page without one dates the
 * release); and the features its families name (the default dcgm counters name none).
 */
class DetectionRangeTest {
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # capture                                                           | range            | features
          # no engine_type (v0.4.3.post4), token counters without num_requests_total (v0.4.3)
          01_v0.4.1_docs_single_request.prom                                  | 0.3.5–0.4.1      |
          # tp_rank and pp_rank (v0.4.10), no moe_ep_rank (v0.5.7); the cut page dates nothing more
          02_v0.5.1_issue13485_tp_labels_TRUNCATED.prom                       | 0.4.10–0.5.6.post2 |
          # num_retracted_reqs (v0.5.3) with tp/pp/dp ranks and no moe_ep_rank
          03_v0.5.3-0.5.6_aibrix1614_dp_attention_pid_label_TRUNCATED.prom    | 0.5.3–0.5.6.post2 |
          vllm-0.4.3.txt                                                      | 0.4              |
          vllm-0.11.x-idle.txt                                                | 0.11             |
          # NVLINK_BANDWIDTH_TOTAL is a default counter reading 0 on this PCIe card: no NVLink
          lke-rtx4000ada-pod-attributed-xid.prom                              | 4.0–4.5.3        | DCP profiling fields (datacenter GPU, SYS_ADMIN)
          # tgi_request_skipped_tokens as a summary (#2528, v2.3); its reason="chunking" (v2.4) is a
          # label value, which detection does not read
          tgi-2.4-3.x_datadog-e2e.txt                                         | 2.3–3.3          |
          """)
  void theCaptureIsDatedByItsLabelsAndSiblings(String file, String range, String features)
      throws Exception {
    Map<String, FamilyInfo> families;
    try (InputStream in = getClass().getResourceAsStream("/fixtures/" + file)) {
      families = PageFamilies.parse(in.readAllBytes(), null);
    }
    Detection d = new EngineDetector(Catalog.builtIn()).detect(families);
    assertThat(d.versions()).hasToString(range);
    assertThat(String.join(", ", d.features())).isEqualTo(features == null ? "" : features);
  }
}
