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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Inference, dcgm-exporter and AMD device-metrics-exporter discovery against fabric8's mock API
 * server in CRUD mode: pods are created, relabeled and deleted in several namespaces, and the
 * targets follow.
 */
class InferenceDiscoveryTest {
  private static final String WORKLOAD = "alibabacloud.com/inference-workload";
  private static final String BACKEND = "alibabacloud.com/inference-backend";
  private static final String ROLE = "rolebasedgroup.workloads.x-k8s.io/role";

  private final KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher();
  private KubernetesMockServer server;
  private KubernetesClient client;
  private Discoverer discoverer;

  @BeforeEach
  void start() {
    server = newServer();
    server.init(InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
  }

  private KubernetesMockServer newServer() {
    return new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
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

  private RecordingSink run(Discoverer d) {
    discoverer = d;
    RecordingSink sink = new RecordingSink();
    Thread t = new Thread(() -> d.run(sink), "test-discoverer");
    t.setDaemon(true);
    t.start();
    return sink;
  }

  private void create(Pod pod) {
    client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
  }

  private static Pod pod(String ns, String name, String ip, String port, Map<String, String> l) {
    return Pods.running(ns, name, ip, port, 8000, l);
  }

  @Test
  void podsComeAndGoWithTheDashboardLabels() {
    InferenceConfig cfg = config("inference:\n  enabled: true\n  scrape_interval: 5s\n");
    RecordingSink sink = run(InferenceDiscovery.pods(cfg, client));

    create(
        pod(
            "team-a",
            "qwen-prefill-0",
            "10.0.0.1",
            "http",
            Map.of(WORKLOAD, "qwen", BACKEND, "vllm-pd", ROLE, "prefill")));
    create(
        pod(
            "team-b",
            "llama-0",
            "10.0.0.2",
            "http",
            Map.of(WORKLOAD, "llama", "inference_backend", "sglang")));
    // Not targets: no workload label; port named otherwise; not running.
    create(pod("team-a", "no-label", "10.0.0.3", "http", Map.of("app", "x")));
    create(pod("team-a", "wrong-port", "10.0.0.4", "metrics", Map.of(WORKLOAD, "qwen")));
    create(
        new PodBuilder(pod("team-b", "pending", "10.0.0.5", "http", Map.of(WORKLOAD, "llama")))
            .editStatus()
            .withPhase("Pending")
            .endStatus()
            .build());

    Map<String, TargetGroup> groups = sink.await("two inference pods", g -> g.size() == 2);
    TargetGroup qwen = groups.get("pod/team-a/qwen-prefill-0");
    assertThat(qwen.merged(0))
        .isEqualTo(
            Labels.builder()
                .set("__address__", "10.0.0.1:8000")
                .set("__meta_inference_metrics_path_setting", "inference.metrics_path")
                .set("__metrics_path__", "/metrics")
                .set("__scrape_interval__", "5s")
                .set("__scrape_timeout__", "5s")
                .set("instance", "10.0.0.1:8000")
                .set("job", "inference")
                .set("namespace", "team-a")
                .set("pod", "qwen-prefill-0")
                .set("node", "node-1")
                .set("container", "engine")
                .set("workload_name", "qwen")
                .set("backend", "vllm-pd")
                .set("role", "prefill")
                .build());
    TargetGroup llama = groups.get("pod/team-b/llama-0");
    assertThat(llama.merged(0).get("backend")).isEqualTo("sglang");
    assertThat(llama.merged(0).has("role")).isFalse();

    // Relabel: the pod changes role; then it is deleted.
    client
        .pods()
        .inNamespace("team-a")
        .withName("qwen-prefill-0")
        .edit(
            p ->
                new PodBuilder(p).editMetadata().addToLabels(ROLE, "decode").endMetadata().build());
    sink.await(
        "role change",
        g ->
            g.containsKey("pod/team-a/qwen-prefill-0")
                && g.get("pod/team-a/qwen-prefill-0").merged(0).get("role").equals("decode"));
    client.pods().inNamespace("team-a").withName("qwen-prefill-0").delete();
    sink.await(
        "deleted pod gone", g -> !g.containsKey("pod/team-a/qwen-prefill-0") && g.size() == 1);
  }

  @Test
  void namespaceFilterAndPortNameAreConfigurable() {
    InferenceConfig cfg =
        config("inference:\n  enabled: true\n  namespaces: [team-b]\n  port_name: metrics\n");
    RecordingSink sink = run(InferenceDiscovery.pods(cfg, client));
    create(pod("team-a", "a", "10.0.0.1", "metrics", Map.of(WORKLOAD, "w")));
    create(pod("team-b", "b", "10.0.0.2", "metrics", Map.of(WORKLOAD, "w")));
    create(pod("team-b", "c", "10.0.0.3", "http", Map.of(WORKLOAD, "w")));
    Map<String, TargetGroup> g = sink.await("pod b", m -> m.containsKey("pod/team-b/b"));
    assertThat(g.keySet()).containsExactly("pod/team-b/b");
  }

  @Test
  void dcgmExporterPodsOnTheDefaultPort() {
    InferenceConfig cfg = config("inference:\n  enabled: true\n  dcgm:\n    enabled: true\n");
    RecordingSink sink = run(InferenceDiscovery.dcgm(cfg.dcgm(), client));
    create(
        Pods.running(
            "gpu-operator",
            "dcgm-x",
            "10.0.9.1",
            "metrics",
            9400,
            Map.of("app.kubernetes.io/name", "dcgm-exporter")));
    create(pod("team-a", "other", "10.0.0.1", "http", Map.of("app", "x")));
    Map<String, TargetGroup> g = sink.await("dcgm pod", m -> m.size() == 1);
    Labels t = g.get("pod/gpu-operator/dcgm-x").merged(0);
    assertThat(t.get("__address__")).isEqualTo("10.0.9.1:9400");
    assertThat(t.get("backend")).isEqualTo("dcgm");
    assertThat(t.get("job")).isEqualTo("dcgm");
    assertThat(t.get("pod")).isEqualTo("dcgm-x");
    assertThat(t.get("namespace")).isEqualTo("gpu-operator");
  }

  /**
   * AMD's exporter as its two installers deploy it: the Helm chart's pod (labels {@code app:
   * <release>-amdgpu-metrics-exporter} and {@code app.kubernetes.io/name: metrics-exporter}, an
   * unnamed container port 5000) and the GPU Operator's ({@code daemonset-name} and the same name
   * label, port 5000 named {@code exporter-port}); a dcgm-exporter pod beside them is not one.
   */
  @Test
  void amdExporterPodsOfTheHelmChartAndTheGpuOperatorOnTheDefaultPort() {
    InferenceConfig cfg = config("inference:\n  enabled: true\n  amdgpu:\n    enabled: true\n");
    assertThat(cfg.dcgm().enabled()).isFalse();
    RecordingSink sink = run(InferenceDiscovery.amdgpu(cfg.amdgpu(), client));
    create(
        Pods.running(
            "metrics",
            "exporter-amdgpu-metrics-exporter-x1",
            "10.0.9.1",
            null,
            5000,
            Map.of(
                "app", "exporter-amdgpu-metrics-exporter",
                "app.kubernetes.io/name", "metrics-exporter")));
    create(
        Pods.running(
            "kube-amd-gpu",
            "default-metrics-exporter-x2",
            "10.0.9.2",
            "exporter-port",
            5000,
            Map.of("daemonset-name", "default", "app.kubernetes.io/name", "metrics-exporter")));
    create(
        Pods.running(
            "gpu-operator",
            "dcgm-x",
            "10.0.9.3",
            "metrics",
            9400,
            Map.of("app.kubernetes.io/name", "dcgm-exporter")));
    Map<String, TargetGroup> g = sink.await("two AMD exporter pods", m -> m.size() == 2);
    Labels helm = g.get("pod/metrics/exporter-amdgpu-metrics-exporter-x1").merged(0);
    assertThat(helm)
        .isEqualTo(
            Labels.builder()
                .set("__address__", "10.0.9.1:5000")
                .set("__metrics_path__", "/metrics")
                .set("instance", "10.0.9.1:5000")
                .set("job", "amdgpu")
                .set("backend", "amdgpu")
                .set("namespace", "metrics")
                .set("pod", "exporter-amdgpu-metrics-exporter-x1")
                .set("node", "node-1")
                .set("container", "engine")
                .build());
    Labels operator = g.get("pod/kube-amd-gpu/default-metrics-exporter-x2").merged(0);
    assertThat(operator.get("__address__")).isEqualTo("10.0.9.2:5000");
    assertThat(operator.get("job")).isEqualTo("amdgpu");
  }

  @Test
  void theAmdExportersSelectorPortAndNamespacesAreConfigurable() {
    InferenceConfig cfg =
        config(
            "inference:\n  enabled: true\n  amdgpu:\n    enabled: true\n"
                + "    label_selector: app=amd-exporter\n    port_name: web\n"
                + "    namespaces: [gpus]\n    metrics_path: /amd\n");
    RecordingSink sink = run(InferenceDiscovery.amdgpu(cfg.amdgpu(), client));
    create(Pods.running("gpus", "a", "10.0.9.1", "web", 5001, Map.of("app", "amd-exporter")));
    create(Pods.running("other", "b", "10.0.9.2", "web", 5001, Map.of("app", "amd-exporter")));
    create(
        Pods.running(
            "gpus",
            "c",
            "10.0.9.3",
            "web",
            5000,
            Map.of("app.kubernetes.io/name", "metrics-exporter")));
    Map<String, TargetGroup> g = sink.await("pod a", m -> m.containsKey("pod/gpus/a"));
    assertThat(g.keySet()).containsExactly("pod/gpus/a");
    Labels t = g.get("pod/gpus/a").merged(0);
    assertThat(t.get("__address__")).isEqualTo("10.0.9.1:5001");
    assertThat(t.get("__metrics_path__")).isEqualTo("/amd");
  }

  @Test
  void watchReconnectsAfterTheServerDropsItAndLosesNothing() throws Exception {
    InferenceConfig cfg = config("inference:\n  enabled: true\n");
    RecordingSink sink = run(InferenceDiscovery.pods(cfg, client));
    create(pod("ns", "before", "10.0.0.1", "http", Map.of(WORKLOAD, "w")));
    create(pod("ns", "doomed", "10.0.0.2", "http", Map.of(WORKLOAD, "w")));
    sink.await("initial pods", g -> g.size() == 2);

    int port = server.getPort();
    server.destroy(); // every open watch is cut
    Thread.sleep(200);
    server = newServer();
    server.init(InetAddress.getLoopbackAddress(), port);
    // Change the cluster right away, before the informer's backoff lets it reconnect: only a
    // relist after reconnecting can see these.
    try (KubernetesClient other = server.createClient()) {
      other.pods().inNamespace("ns").withName("doomed").delete();
      other
          .pods()
          .inNamespace("ns")
          .resource(pod("ns", "after", "10.0.0.3", "http", Map.of(WORKLOAD, "w")))
          .create();
    }
    Map<String, TargetGroup> g =
        sink.await(
            "state after reconnect",
            m -> m.keySet().equals(java.util.Set.of("pod/ns/before", "pod/ns/after")));
    assertThat(g.get("pod/ns/after").targets()).hasSize(1);
    assertThat(List.copyOf(g.keySet())).doesNotContain("pod/ns/doomed");
  }
}
