package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.await;
import static dev.infermon.server.cli.ServeTestSupport.body;
import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.infermon.server.runtime.Infermon;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code inference} section wired into {@code infermon serve}: pods created in a Kubernetes API
 * (fabric8's mock server in CRUD mode) become targets of the {@code inference} and {@code dcgm}
 * pools (and {@code amdgpu} for AMD's exporter), are scraped with the dashboard labels, and leave
 * when deleted.
 */
class InferenceDiscoveryServeTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path dir;
  private KubernetesMockServer api;
  private KubernetesClient client;
  private HttpServer pages;

  @BeforeEach
  void start() throws IOException {
    api =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    api.init(InetAddress.getLoopbackAddress(), 0);
    client = api.createClient();
    pages = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    pages.createContext(
        "/metrics", ex -> page(ex, "vllm:num_requests_running{model_name=\"m\"} 3\n"));
    pages.createContext(
        "/dcgm",
        ex -> page(ex, "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",namespace=\"llm\",pod=\"qwen-0\"} 42\n"));
    // AMD's exporter as it writes an attributed GPU: its mandatory labels, pod and namespace those
    // of the inference pod that holds the GPU (amdgpu.yaml)
    pages.createContext(
        "/amd",
        ex ->
            page(
                ex,
                "# TYPE gpu_gfx_activity gauge\n"
                    + "gpu_gfx_activity{card_model=\"102-G30211-0C\",container=\"engine\","
                    + "gpu_compute_partition_type=\"spx\",gpu_id=\"0\","
                    + "gpu_memory_partition_type=\"nps1\",gpu_partition_id=\"0\","
                    + "hostname=\"mi300x-node-1\",namespace=\"llm\",pod=\"qwen-0\","
                    + "serial_number=\"S1\"} 37\n"));
    pages.start();
  }

  @AfterEach
  void stop() {
    client.close();
    api.destroy();
    pages.stop(0);
  }

  private static void page(com.sun.net.httpserver.HttpExchange ex, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
    ex.sendResponseHeaders(200, b.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(b);
    }
  }

  private static Pod pod(String ns, String name, Map<String, String> labels, String port) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withNodeName("gpu-node-1")
        .addNewContainer()
        .withName("engine")
        .addNewPort()
        .withName(port)
        .withContainerPort(0)
        .endPort()
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withPodIP("127.0.0.1")
        .endStatus()
        .build();
  }

  private static Pod withPort(Pod p, int port) {
    return new PodBuilder(p)
        .editSpec()
        .editFirstContainer()
        .editFirstPort()
        .withContainerPort(port)
        .endPort()
        .endContainer()
        .endSpec()
        .build();
  }

  @Test
  void podsInTheApiBecomeScrapedTargetsWithDashboardLabels() throws Exception {
    int port = pages.getAddress().getPort();
    Path kubeconfig = dir.resolve("kubeconfig.yml");
    Files.writeString(
        kubeconfig,
        "apiVersion: v1\nkind: Config\n"
            + "clusters:\n- name: mock\n  cluster: {server: '"
            + api.url("/").replaceAll("/$", "")
            + "'}\n"
            + "users:\n- name: u\n  user: {token: t}\n"
            + "contexts:\n- name: mock\n  context: {cluster: mock, user: u}\n"
            + "current-context: mock\n");
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(
        cfg,
        "inference:\n"
            + "  enabled: true\n"
            + "  kubeconfig_file: kubeconfig.yml\n"
            + "  scrape_interval: 1s\n"
            + "  dcgm:\n"
            + "    enabled: true\n"
            + "    port: "
            + port
            + "\n"
            + "    metrics_path: /dcgm\n");
    Infermon m =
        serve(
                "--config.file=" + cfg,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("data"))
            .infermon();
    try {
      client
          .pods()
          .inNamespace("llm")
          .resource(
              withPort(
                  pod(
                      "llm",
                      "qwen-0",
                      Map.of(
                          "alibabacloud.com/inference-workload", "qwen",
                          "alibabacloud.com/inference-backend", "vllm"),
                      "http"),
                  port))
          .create();
      client
          .pods()
          .inNamespace("gpu-operator")
          .resource(
              pod(
                  "gpu-operator",
                  "nvidia-dcgm-exporter-abc",
                  Map.of("app.kubernetes.io/name", "dcgm-exporter"),
                  "metrics"))
          .create();

      await(
          "both pods scraped",
          PATIENCE,
          () -> {
            String t = body(m, "/api/v1/targets");
            return t.contains("\"scrapePool\":\"inference\"")
                && t.contains("\"scrapePool\":\"dcgm\"")
                && !t.contains("\"health\":\"unknown\"");
          });
      String targets = body(m, "/api/v1/targets");
      assertThat(targets)
          .contains("\"scrapeUrl\":\"http://127.0.0.1:" + port + "/metrics\"")
          .contains("\"scrapeUrl\":\"http://127.0.0.1:" + port + "/dcgm\"")
          .contains("\"workload_name\":\"qwen\"")
          .contains("\"backend\":\"vllm\"")
          .doesNotContain("\"health\":\"down\"");
      await(
          "the engine's series stored",
          PATIENCE,
          () ->
              body(m, "/api/v1/query?query=vllm:num_requests_running")
                  .contains("\"pod\":\"qwen-0\""));
      assertThat(body(m, "/api/v1/query?query=vllm:num_requests_running"))
          .contains("\"job\":\"inference\"")
          .contains("\"namespace\":\"llm\"")
          .contains("\"node\":\"gpu-node-1\"")
          .contains("\"workload_name\":\"qwen\"");
      // honor_labels is false: the exporter's own pod label moves to exported_pod.
      assertThat(body(m, "/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL"))
          .contains("\"exported_pod\":\"qwen-0\"")
          .contains("\"pod\":\"nvidia-dcgm-exporter-abc\"")
          .contains("\"backend\":\"dcgm\"")
          .contains("\"job\":\"dcgm\"");

      client.pods().inNamespace("llm").withName("qwen-0").delete();
      await(
          "the deleted pod gone from the targets",
          PATIENCE,
          () -> !body(m, "/api/v1/targets").contains("\"scrapePool\":\"inference\","));
    } finally {
      m.close();
    }
  }

  private Path kubeconfig() throws IOException {
    Path kubeconfig = dir.resolve("kubeconfig.yml");
    Files.writeString(
        kubeconfig,
        "apiVersion: v1\nkind: Config\n"
            + "clusters:\n- name: mock\n  cluster: {server: '"
            + api.url("/").replaceAll("/$", "")
            + "'}\n"
            + "users:\n- name: u\n  user: {token: t}\n"
            + "contexts:\n- name: mock\n  context: {cluster: mock, user: u}\n"
            + "current-context: mock\n");
    return kubeconfig;
  }

  /**
   * A discovered AMD exporter pod's GPU is attributed to the inference pod its series name: stored
   * under {@code exported_pod}, it fills the pod's GPU utilisation panel with the exporter's
   * reading.
   */
  @Test
  void aDiscoveredAmdExportersGpuIsTheInferencePodsOnTheGpuPanels() throws Exception {
    int port = pages.getAddress().getPort();
    kubeconfig();
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(
        cfg,
        "inference:\n"
            + "  enabled: true\n"
            + "  kubeconfig_file: kubeconfig.yml\n"
            + "  scrape_interval: 1s\n"
            + "  amdgpu:\n"
            + "    enabled: true\n"
            + "    port: "
            + port
            + "\n"
            + "    metrics_path: /amd\n");
    Infermon m =
        serve(
                "--config.file=" + cfg,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("data"))
            .infermon();
    try {
      client
          .pods()
          .inNamespace("llm")
          .resource(
              withPort(
                  pod(
                      "llm",
                      "qwen-0",
                      Map.of(
                          "alibabacloud.com/inference-workload", "qwen",
                          "alibabacloud.com/inference-backend", "vllm"),
                      "http"),
                  port))
          .create();
      client
          .pods()
          .inNamespace("kube-amd-gpu")
          .resource(
              pod(
                  "kube-amd-gpu",
                  "default-metrics-exporter-x2",
                  Map.of("app.kubernetes.io/name", "metrics-exporter", "daemonset-name", "default"),
                  "exporter-port"))
          .create();
      await(
          "the AMD exporter's series stored",
          PATIENCE,
          () -> body(m, "/api/v1/query?query=gpu_gfx_activity").contains("\"exported_pod\""));
      assertThat(body(m, "/api/v1/query?query=gpu_gfx_activity"))
          .contains("\"exported_pod\":\"qwen-0\"")
          .contains("\"pod\":\"default-metrics-exporter-x2\"")
          .contains("\"backend\":\"amdgpu\"")
          .contains("\"job\":\"amdgpu\"");
      assertThat(body(m, "/api/v1/targets")).contains("\"scrapePool\":\"amdgpu\"");
      await(
          "the inference pod's series stored",
          PATIENCE,
          () ->
              body(m, "/api/v1/query?query=vllm:num_requests_running")
                  .contains("\"pod\":\"qwen-0\""));
      // the inventory behind the panel reads what is stored up to its request: a target a
      // second old may not be in it yet, so the panel is asked again until it is (bounded)
      await("the GPU panel filled", PATIENCE, () -> gpuPanel(m).contains("\"status\":\"OK\""));
      assertThat(gpuPanel(m))
          .contains("\"status\":\"OK\"")
          .contains("\"pod\":\"qwen-0\"")
          .contains("\"gpu\":\"0\"")
          .contains("37");
    } finally {
      m.close();
    }
  }

  /** The pod GPU utilisation panel over the last minute. */
  private static String gpuPanel(Infermon m) {
    long now = System.currentTimeMillis() / 1000;
    return body(
        m,
        "/api/v1/llm/dashboard/panel?id=gpu.utilization&start="
            + (now - 60)
            + "&end="
            + now
            + "&step=1");
  }

  @Test
  void aConfiguredJobCannotTakeAPoolName() throws Exception {
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(
        cfg,
        "inference: {enabled: true, kubeconfig_file: none.yml}\n"
            + "scrape_configs:\n  - job_name: inference\n");

    ServeTestSupport.Started s =
        serve(
            "--config.file=" + cfg,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + dir.resolve("data"));

    assertThat(s.exitCode()).isEqualTo(1);
    assertThat(s.err()).contains("job name \"inference\" is taken by inference discovery");
  }
}
