package dev.infermon.discovery.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.InferenceConfig;
import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.RecordingSink;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the pods of NVIDIA Dynamo and NVIDIA NIM are scraped, discovered through fabric8's mock API
 * server in CRUD mode, the pods laid out as their deployers render them:
 *
 * <ul>
 *   <li>the Dynamo operator gives its frontend the container port {@code http} (8000) and every
 *       worker (component type {@code worker}, {@code prefill}, {@code decode}) the ports {@code
 *       system} (9090, the system server that serves the worker's {@code /metrics}) and {@code
 *       nixl} (19090): ai-dynamo/dynamo deploy/operator/internal/consts/consts.go ({@code
 *       DynamoContainerPortName}, {@code DynamoSystemPortName}, {@code DynamoSystemPort}) and
 *       internal/dynamo/component_frontend.go, component_worker.go @ 0367e404;
 *   <li>NVIDIA's nim-llm Helm chart names NIM's port 8000 {@code http-openai} (NVIDIA/nim-deploy
 *       helm/nim-llm), served metrics at {@code /v1/metrics}.
 * </ul>
 */
class DynamoPortsTest {
  private static final String SELECTED = "example.com/monitored";
  private static final String TYPE = "nvidia.com/dynamo-component-type";

  private final KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher();
  private KubernetesMockServer server;
  private KubernetesClient client;
  private Discoverer discoverer;
  private int pods;

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

  private RecordingSink run(String extra) throws Exception {
    InferenceConfig cfg =
        ConfigLoader.create()
            .parse(
                "inference:\n  enabled: true\n  label_selector: " + SELECTED + "\n" + extra,
                "test.yml")
            .inference();
    discoverer = InferenceDiscovery.pods(cfg, client);
    RecordingSink sink = new RecordingSink();
    Thread t = new Thread(() -> discoverer.run(sink), "test-discoverer");
    t.setDaemon(true);
    t.start();
    return sink;
  }

  /** A running pod with labels {@code labels} whose container declares {@code ports}. */
  private void create(String name, Map<String, String> labels, Map<String, Integer> ports) {
    Map<String, String> l = new LinkedHashMap<>(labels);
    l.put(SELECTED, "true");
    pods++;
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace("dynamo")
            .withName(name)
            .withLabels(l)
            .endMetadata()
            .withNewSpec()
            .withNodeName("node-1")
            .addNewContainer()
            .withName("main")
            .withImage("nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.0")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .withPodIP("10.0.2." + pods)
            .endStatus();
    ports.forEach(
        (n, p) ->
            b.editSpec()
                .editFirstContainer()
                .addToPorts(
                    new ContainerPortBuilder()
                        .withName(n)
                        .withContainerPort(p)
                        .withProtocol("TCP")
                        .build())
                .endContainer()
                .endSpec());
    client.pods().inNamespace("dynamo").resource(b.build()).create();
  }

  /** Each target of the pod as "port backend role path". */
  private static List<String> targets(Map<String, TargetGroup> groups, String pod) {
    TargetGroup g = groups.get("pod/dynamo/" + pod);
    List<String> out = new ArrayList<>();
    if (g == null) {
      return out;
    }
    for (int i = 0; i < g.targets().size(); i++) {
      Labels t = g.merged(i);
      String instance = t.get("instance");
      out.add(
          instance.substring(instance.lastIndexOf(':') + 1)
              + " "
              + t.get("backend")
              + " "
              + t.get("role")
              + " "
              + t.get("__metrics_path__"));
    }
    return out;
  }

  private static final Map<String, Integer> FRONTEND_PORTS = Map.of("http", 8000);
  private static final Map<String, Integer> WORKER_PORTS = Map.of("system", 9090, "nixl", 19090);

  @Test
  void dynamosFrontendIsScrapedOnHttpAndItsWorkersOnTheSystemPort() throws Exception {
    RecordingSink sink = run("");
    create("frontend", Map.of(TYPE, "frontend"), FRONTEND_PORTS);
    create("decode", Map.of(TYPE, "decode"), WORKER_PORTS);
    create("prefill", Map.of(TYPE, "prefill"), WORKER_PORTS);
    create(
        "legacy-worker",
        Map.of(TYPE, "worker", "nvidia.com/dynamo-sub-component-type", "decode"),
        WORKER_PORTS);
    // a worker's pod template may declare an http port of its own: the system port still serves
    create("worker-with-http", Map.of(TYPE, "worker"), Map.of("http", 8000, "system", 9090));
    Map<String, TargetGroup> g = sink.await("five pods", m -> m.size() == 5);
    assertThat(targets(g, "frontend")).containsExactly("8000 dynamo frontend /metrics");
    assertThat(targets(g, "decode")).containsExactly("9090  decode /metrics");
    assertThat(targets(g, "prefill")).containsExactly("9090  prefill /metrics");
    assertThat(targets(g, "legacy-worker")).containsExactly("9090  decode /metrics");
    assertThat(targets(g, "worker-with-http")).containsExactly("9090  worker /metrics");
  }

  /**
   * The planner and the endpoint picker carry the component type too, but serve their own metrics
   * on the port {@code metrics}: the planner its Prometheus server on 9085 ({@code
   * DynamoPlannerMetricsPort}, {@code PLANNER_PROMETHEUS_PORT}; its {@code system} port 9090 is the
   * runtime's status server), the EPP on 9090 beside its gRPC ports and without a {@code system}
   * port (component_planner.go @ 015d780b, component_epp.go @ 0535863d, consts.go @ d195d280).
   */
  @Test
  void thePlannerAndTheEppAreScrapedOnTheirMetricsPort() throws Exception {
    RecordingSink sink = run("");
    create("planner", Map.of(TYPE, "planner"), Map.of("metrics", 9085, "system", 9090));
    create("epp", Map.of(TYPE, "epp"), Map.of("grpc", 9002, "grpc-health", 9003, "metrics", 9090));
    Map<String, TargetGroup> g = sink.await("two pods", m -> m.size() == 2);
    assertThat(targets(g, "planner")).containsExactly("9085  planner /metrics");
    assertThat(targets(g, "epp")).containsExactly("9090  epp /metrics");
  }

  @Test
  void nimIsScrapedOnPort8000AtV1Metrics() throws Exception {
    RecordingSink sink = run("");
    // nim-llm's chart names 8000 http-openai; a port named http is the same port
    create(
        "nim-chart",
        Map.of("alibabacloud.com/inference-backend", "nim"),
        Map.of("http-openai", 8000));
    create("nim-http", Map.of("alibabacloud.com/inference-backend", "nim"), Map.of("http", 8000));
    Map<String, TargetGroup> g = sink.await("two pods", m -> m.size() == 2);
    assertThat(targets(g, "nim-chart")).containsExactly("8000 nim  /v1/metrics");
    assertThat(targets(g, "nim-http")).containsExactly("8000 nim  /v1/metrics");
  }

  @Test
  void thePortsByLabelAreConfigurable() throws Exception {
    RecordingSink sink =
        run(
            "  metrics_ports_by_label: {"
                + TYPE
                + "=frontend: 8080, "
                + TYPE
                + "=decode: metrics}\n"
                + "  metrics_paths: {nim: /metrics}\n");
    create("frontend", Map.of(TYPE, "frontend"), FRONTEND_PORTS);
    create("decode", Map.of(TYPE, "decode"), Map.of("system", 9090, "metrics", 9091));
    // the map replaces the default: a worker no matcher names is scraped on port_name (http)
    create("prefill", Map.of(TYPE, "prefill"), Map.of("http", 8000, "system", 9090));
    create("old-nim", Map.of("inference_backend", "nim"), Map.of("http", 8000));
    Map<String, TargetGroup> g = sink.await("four pods", m -> m.size() == 4);
    assertThat(targets(g, "frontend")).containsExactly("8080 dynamo frontend /metrics");
    assertThat(targets(g, "decode")).containsExactly("9091  decode /metrics");
    assertThat(targets(g, "prefill")).containsExactly("8000  prefill /metrics");
    // an older NIM that serves /metrics
    assertThat(targets(g, "old-nim")).containsExactly("8000 nim  /metrics");
  }

  /**
   * A Dynamo worker labelled with its engine ({@code inference_backend: trtllm}) is still served by
   * Dynamo's system server, whose {@code /metrics} carries the engine's families (re-exported as
   * {@code trtllm_*}): the operator's component label wins over the engine's own path
   * (trtllm-serve's {@code /prometheus/metrics}), as it wins for the port. A trtllm-serve pod
   * without it keeps its path.
   */
  @Test
  void aDynamoWorkerLabelledWithItsEngineIsScrapedAtTheSystemServersPath() throws Exception {
    RecordingSink sink = run("");
    create("trtllm-decode", Map.of(TYPE, "decode", "inference_backend", "trtllm"), WORKER_PORTS);
    create("vllm-worker", Map.of(TYPE, "worker", "inference_backend", "vllm"), WORKER_PORTS);
    create("trtllm-serve", Map.of("inference_backend", "trtllm"), Map.of("http", 8000));
    Map<String, TargetGroup> g = sink.await("three pods", m -> m.size() == 3);
    assertThat(targets(g, "trtllm-decode")).containsExactly("9090 trtllm decode /metrics");
    assertThat(targets(g, "vllm-worker")).containsExactly("9090 vllm worker /metrics");
    assertThat(targets(g, "trtllm-serve")).containsExactly("8000 trtllm  /prometheus/metrics");
  }

  @Test
  void thePathsByLabelAreConfigurable() throws Exception {
    RecordingSink sink = run("  metrics_paths_by_label: {" + TYPE + "=decode: /custom}\n");
    create("decode", Map.of(TYPE, "decode", "inference_backend", "trtllm"), WORKER_PORTS);
    // the map replaces the default: a worker no matcher names takes its backend's path
    create("prefill", Map.of(TYPE, "prefill", "inference_backend", "trtllm"), WORKER_PORTS);
    Map<String, TargetGroup> g = sink.await("two pods", m -> m.size() == 2);
    assertThat(targets(g, "decode")).containsExactly("9090 trtllm decode /custom");
    assertThat(targets(g, "prefill")).containsExactly("9090 trtllm prefill /prometheus/metrics");
  }
}
