package dev.infermon.discovery.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.InferenceConfig;
import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.RecordingSink;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.kubernetes.Pods;
import dev.infermon.model.labels.Labels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pods KServe, llm-d and NVIDIA Dynamo render, with the label keys their operators stamp,
 * discovered through fabric8's mock API server in CRUD mode with the default label lists: each row
 * is a pod's labels and the {@code workload_name}, {@code backend}, {@code role} and metrics path
 * its target gets. The selector is a label every row carries, as an opted-in deployment's would be.
 */
class OperatorLabelsTest {
  private static final String SELECTED = "example.com/monitored";

  private record Row(
      String pod,
      Map<String, String> labels,
      String workload,
      String backend,
      String role,
      String path) {}

  private static final List<Row> ROWS =
      List.of(
          // KServe InferenceService predictor (pkg/constants: InferenceServicePodLabelKey).
          new Row(
              "isvc-predictor",
              Map.of("serving.kserve.io/inferenceservice", "llama", "inference_backend", "vllm"),
              "llama",
              "vllm",
              "",
              "/metrics"),
          // KServe LLMInferenceService prefill pod (its workload selector; llm-d's role label).
          new Row(
              "llmisvc-prefill",
              Map.of(
                  "app.kubernetes.io/name", "qwen",
                  "app.kubernetes.io/part-of", "llminferenceservice",
                  "kserve.io/component", "workload",
                  "llm-d.ai/role", "prefill"),
              "qwen",
              "",
              "prefill",
              "/metrics"),
          // Dynamo v1beta1: the role is the component type. A worker is no "dynamo" engine: the
          // operator's labels do not name its engine (vLLM here), found on its page.
          new Row(
              "dynamo-decode",
              Map.of(
                  "nvidia.com/dynamo-graph-deployment-name", "dsr1",
                  "nvidia.com/dynamo-component-type", "decode",
                  "nvidia.com/dynamo-component", "VllmDecodeWorker"),
              "dsr1",
              "",
              "decode",
              "/metrics"),
          // Dynamo v1alpha1-era worker: component type "worker", the role in the sub-type.
          new Row(
              "dynamo-legacy-prefill",
              Map.of(
                  "nvidia.com/dynamo-graph-deployment-name", "dsr1",
                  "nvidia.com/dynamo-component-type", "worker",
                  "nvidia.com/dynamo-sub-component-type", "prefill"),
              "dsr1",
              "",
              "prefill",
              "/metrics"),
          // A Dynamo worker with a backend label of the user's own takes it.
          new Row(
              "dynamo-sglang-worker",
              Map.of(
                  "nvidia.com/dynamo-graph-deployment-name", "dsr1",
                  "nvidia.com/dynamo-component-type", "worker",
                  "inference_backend", "sglang"),
              "dsr1",
              "sglang",
              "worker",
              "/metrics"),
          // Dynamo's frontend: the router in front of the workers.
          new Row(
              "dynamo-frontend",
              Map.of(
                  "nvidia.com/dynamo-graph-deployment-name", "dsr1",
                  "nvidia.com/dynamo-component-type", "frontend"),
              "dsr1",
              "dynamo",
              "frontend",
              "/metrics"),
          // ACK labels win over the others; trtllm-serve's path is its own.
          new Row(
              "ack-trtllm",
              Map.of(
                  "alibabacloud.com/inference-workload", "mistral",
                  "alibabacloud.com/inference-backend", "trtllm",
                  "app.kubernetes.io/name", "mistral-chart"),
              "mistral",
              "trtllm",
              "",
              "/prometheus/metrics"),
          // NVIDIA NIM for LLMs serves /v1/metrics (NIM docs, observability.html).
          new Row(
              "ack-nim",
              Map.of(
                  "alibabacloud.com/inference-workload", "llama",
                  "alibabacloud.com/inference-backend", "nim"),
              "llama",
              "nim",
              "",
              "/v1/metrics"));

  private final KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher();
  private KubernetesMockServer server;
  private KubernetesClient client;
  private Discoverer discoverer;

  @BeforeEach
  void start() {
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
  }

  @AfterEach
  void stop() {
    if (discoverer != null) {
      discoverer.stop();
    }
    client.close();
    server.destroy();
  }

  private static InferenceConfig config(String yaml) {
    try {
      return ConfigLoader.create().parse(yaml, "test.yml").inference();
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private RecordingSink run(InferenceConfig cfg) {
    discoverer = InferenceDiscovery.pods(cfg, client);
    RecordingSink sink = new RecordingSink();
    Thread t = new Thread(() -> discoverer.run(sink), "test-discoverer");
    t.setDaemon(true);
    t.start();
    return sink;
  }

  private void create(String name, Map<String, String> labels) {
    Map<String, String> l = new LinkedHashMap<>(labels);
    l.put(SELECTED, "true");
    int ip = client.pods().inNamespace("serving").list().getItems().size() + 1;
    // every pod also declares Dynamo's system port, where Dynamo's workers are scraped
    Pod pod =
        new PodBuilder(Pods.running("serving", name, "10.0.1." + ip, "http", 8000, l))
            .editSpec()
            .editFirstContainer()
            .addNewPort()
            .withName("system")
            .withContainerPort(9090)
            .withProtocol("TCP")
            .endPort()
            .endContainer()
            .endSpec()
            .build();
    client.pods().inNamespace("serving").resource(pod).create();
  }

  @Test
  void operatorsLabelsMapToWorkloadBackendRoleAndPath() {
    RecordingSink sink =
        run(config("inference:\n  enabled: true\n  label_selector: " + SELECTED + "\n"));
    for (Row r : ROWS) {
      create(r.pod(), r.labels());
    }
    Map<String, TargetGroup> groups = sink.await("every row", g -> g.size() == ROWS.size());
    for (Row r : ROWS) {
      Labels t = groups.get("pod/serving/" + r.pod()).merged(0);
      assertThat(
              List.of(
                  t.get("workload_name"),
                  t.get("backend"),
                  t.get("role"),
                  t.get("__metrics_path__")))
          .as(r.pod())
          .isEqualTo(List.of(r.workload(), r.backend(), r.role(), r.path()));
    }
  }

  @Test
  void theMappingsAreConfigurable() {
    RecordingSink sink =
        run(
            config(
                "inference:\n  enabled: true\n  label_selector: "
                    + SELECTED
                    + "\n  workload_labels: [app.kubernetes.io/instance]"
                    + "\n  backend_by_label: {kserve.io/component: kserve}"
                    + "\n  metrics_paths: {kserve: /stats/prometheus}\n"));
    create(
        "custom",
        Map.of(
            "app.kubernetes.io/instance", "gemma",
            "serving.kserve.io/inferenceservice", "not-this",
            "kserve.io/component", "workload"));
    Labels t = sink.await("custom pod", g -> g.size() == 1).get("pod/serving/custom").merged(0);
    assertThat(t.get("workload_name")).isEqualTo("gemma");
    assertThat(t.get("backend")).isEqualTo("kserve");
    assertThat(t.get("__metrics_path__")).isEqualTo("/stats/prometheus");
  }
}
