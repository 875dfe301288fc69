package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.ExportService;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.LlamacppPod;
import dev.infermon.simulator.ModelProfile;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The exported Grafana dashboard's {@code $model} variable, evaluated as Grafana does against a
 * simulated fleet of vLLM and llama.cpp pods: llama.cpp's page carries no model label (its catalog
 * reads the model from the target's {@code workload_name}, as the panels do), so the variable must
 * list the llama.cpp workloads beside vLLM's {@code model_name}s, and nothing else.
 */
class GrafanaModelVariableTest {
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final String OTHER = "Qwen/Qwen2.5-7B-Instruct";
  private static SimulatedFleet fleet;
  private static JsonNode model;

  @BeforeAll
  static void run() throws Exception {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(1)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .llamacppPods(2)
            .models(List.of(MODEL, OTHER))
            .build();
    fleet = new SimulatedFleet(config, false);
    fleet.run(Duration.ofMinutes(2), snap -> {});
    ExportService export = new ExportService(Catalog.builtIn());
    JsonNode d = new ObjectMapper().readTree(export.grafana(Set.of("vllm", "llamacpp")));
    for (JsonNode v : d.path("templating").path("list")) {
      if (v.path("name").asText().equals("model")) {
        model = v;
      }
    }
  }

  @Test
  void theModelVariableOffersLlamacppWorkloadsAndVllmModels() {
    Set<String> llamacpp =
        fleet.fleet.pods().stream()
            .filter(LlamacppPod.class::isInstance)
            .map(p -> p.info().workloadName())
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> vllm =
        fleet.fleet.pods().stream()
            .filter(p -> !(p instanceof LlamacppPod))
            .map(InferencePod::profile)
            .map(ModelProfile::name)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(llamacpp).isNotEmpty().doesNotContainAnyElementsOf(vllm);
    Set<String> expected = new TreeSet<>(llamacpp);
    expected.addAll(vllm);
    assertThat(options(model)).isEqualTo(expected);
  }

  /**
   * The values Grafana's Prometheus data source lists for a query variable: {@code
   * label_values(l)}, every value of {@code l}; {@code query_result(q)}, each result series written
   * {@code {labels} value timestamp}, kept through the variable's regex.
   */
  private static Set<String> options(JsonNode variable) {
    String query = variable.path("query").asText();
    Set<String> out = new TreeSet<>();
    Matcher lv = Pattern.compile("label_values\\((\\w+)\\)").matcher(query);
    if (lv.matches()) {
      String label = lv.group(1);
      for (Sample s : instant("count by (" + label + ") ({" + label + "!=\"\"})").samples()) {
        out.add(s.labels().get(label));
      }
      return out;
    }
    assertThat(query).startsWith("query_result(").endsWith(")");
    String regex = variable.path("regex").asText();
    Pattern p = Pattern.compile(regex.substring(1, regex.length() - 1));
    for (Sample s :
        instant(query.substring("query_result(".length(), query.length() - 1)).samples()) {
      Matcher m = p.matcher(s.labels() + " " + s.value() + " " + fleet.now() / 1000);
      if (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  private static Vector instant(String q) {
    return (Vector) fleet.backend.instantQuery(q, fleet.now()).value();
  }
}
