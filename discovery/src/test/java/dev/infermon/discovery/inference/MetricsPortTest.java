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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The metrics port per backend ({@code inference.metrics_ports}), discovered through fabric8's mock
 * API server in CRUD mode: Triton Inference Server serves {@code /metrics} on port 8002 while its
 * port named {@code http} (8000) serves inference (triton-inference-server/server
 * docs/user_guide/metrics.md), so a Triton pod is scraped on 8002 by default, declared or not, and
 * every other backend on {@code port_name}; a configured name or number replaces the default.
 */
class MetricsPortTest {
  private static final String SELECTED = "example.com/monitored";
  private static final String IP = "127.0.0.1";

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

  private RecordingSink run(String yaml) throws Exception {
    InferenceConfig cfg = ConfigLoader.create().parse(yaml, "test.yml").inference();
    discoverer = InferenceDiscovery.pods(cfg, client);
    RecordingSink sink = new RecordingSink();
    Thread t = new Thread(() -> discoverer.run(sink), "test-discoverer");
    t.setDaemon(true);
    t.start();
    return sink;
  }

  /** A pod of {@code backend} whose container declares {@code http:8000} and {@code extra}. */
  private void create(String name, String backend, Map<String, Integer> extra) {
    Pod pod =
        Pods.running(
            "serving",
            name,
            IP,
            "http",
            8000,
            Map.of(SELECTED, "true", "alibabacloud.com/inference-backend", backend));
    PodBuilder b = new PodBuilder(pod);
    extra.forEach(
        (n, p) ->
            b.editSpec()
                .editFirstContainer()
                .addNewPort()
                .withName(n)
                .withContainerPort(p)
                .withProtocol("TCP")
                .endPort()
                .endContainer()
                .endSpec());
    client.pods().inNamespace("serving").resource(b.build()).create();
  }

  private static List<String> instances(TargetGroup g) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < g.targets().size(); i++) {
      Labels t = g.merged(i);
      out.add(t.get("instance") + " " + t.get("container") + " " + t.get("__metrics_path__"));
    }
    return out;
  }

  @Test
  void tritonIsScrapedOnItsMetricsPortByDefaultAndOtherBackendsOnPortName() throws Exception {
    RecordingSink sink = run("inference:\n  enabled: true\n  label_selector: " + SELECTED + "\n");
    create("triton-declared", "triton", Map.of("grpc", 8001, "metrics", 8002));
    create("triton-undeclared", "triton", Map.of());
    create("vllm", "vllm", Map.of("metrics", 8002));
    Map<String, TargetGroup> g = sink.await("three pods", m -> m.size() == 3);
    assertThat(instances(g.get("pod/serving/triton-declared")))
        .containsExactly(IP + ":8002 engine /metrics");
    assertThat(instances(g.get("pod/serving/triton-undeclared")))
        .containsExactly(IP + ":8002 engine /metrics");
    assertThat(instances(g.get("pod/serving/vllm"))).containsExactly(IP + ":8000 engine /metrics");
  }

  @Test
  void aConfiguredPortNameOrNumberReplacesTheDefaults() throws Exception {
    RecordingSink sink =
        run(
            "inference:\n  enabled: true\n  label_selector: "
                + SELECTED
                + "\n  metrics_ports: {vllm: metrics, sglang: 30001}\n");
    // first, so that it has been seen when the others arrive
    create("vllm-no-metrics-port", "vllm", Map.of());
    create("triton", "triton", Map.of("metrics", 8002));
    create("vllm", "vllm", Map.of("metrics", 9090));
    create("sglang", "sglang", Map.of());
    Map<String, TargetGroup> g =
        sink.await(
            "three targets",
            m -> m.containsKey("pod/serving/sglang") && m.containsKey("pod/serving/vllm"));
    // the map replaces the default: Triton falls back to port_name
    assertThat(instances(g.get("pod/serving/triton")))
        .containsExactly(IP + ":8000 engine /metrics");
    assertThat(instances(g.get("pod/serving/vllm"))).containsExactly(IP + ":9090 engine /metrics");
    // a name is a declared port's: a pod without it is no target
    TargetGroup none = g.get("pod/serving/vllm-no-metrics-port");
    assertThat(none == null ? List.of() : instances(none)).isEmpty();
    assertThat(instances(g.get("pod/serving/sglang")))
        .containsExactly(IP + ":30001 engine /metrics");
  }
}
