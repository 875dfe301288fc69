package dev.infermon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.StaticConfig;
import dev.infermon.discovery.staticsd.StaticDiscoverer;
import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The manager coalesces provider updates into full snapshots per target set. */
class DiscoveryManagerTest {
  /** A provider whose updates the test sends by hand. */
  static final class ManualDiscoverer implements Discoverer {
    volatile TargetSink sink;

    @Override
    public void run(TargetSink s) {
      sink = s;
    }

    @Override
    public void stop() {}
  }

  @Test
  void staticTargetsAndManualUpdatesArriveAsSnapshots() throws Exception {
    List<Map<String, List<TargetGroup>>> sent = new CopyOnWriteArrayList<>();
    ManualDiscoverer manual = new ManualDiscoverer();
    try (DiscoveryManager m = new DiscoveryManager(Duration.ofMillis(50), sent::add)) {
      StaticDiscoverer st =
          new StaticDiscoverer(
              List.of(new StaticConfig(List.of("h:1", "h:2"), Labels.of("env", "test"))));
      m.apply(Map.of("static", List.of(st), "manual", List.of(manual)));
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while ((manual.sink == null || sent.isEmpty()) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      TargetSink sink = manual.sink;
      // Three quick updates: coalesced, and the last one for a source wins.
      sink.update(
          List.of(new TargetGroup("x", List.of(Labels.of("__address__", "a:1")), Labels.EMPTY)));
      sink.update(
          List.of(new TargetGroup("x", List.of(Labels.of("__address__", "b:1")), Labels.EMPTY)));
      sink.update(
          List.of(new TargetGroup("y", List.of(Labels.of("__address__", "c:1")), Labels.EMPTY)));
      sink.update(List.of(TargetGroup.empty("y")));
      m.flush();
      Map<String, List<TargetGroup>> last = sent.get(sent.size() - 1);
      assertThat(last.get("static")).hasSize(1);
      assertThat(last.get("static").get(0).merged(1))
          .isEqualTo(Labels.of("__address__", "h:2", "env", "test"));
      List<String> manualAddresses = new ArrayList<>();
      for (TargetGroup g : last.get("manual")) {
        manualAddresses.add(g.targets().get(0).get("__address__"));
      }
      assertThat(manualAddresses).containsExactly("b:1");

      // A set that goes away is sent once, empty.
      m.apply(Map.of("static", List.of(st)));
      m.flush();
      assertThat(sent.get(sent.size() - 1).get("manual")).isEmpty();
    }
  }

  @Test
  void sanitizesKubernetesLabelKeysLikePrometheus() {
    assertThat(DiscoveryLabels.sanitize("alibabacloud.com/inference-workload"))
        .isEqualTo("alibabacloud_com_inference_workload");
    assertThat(DiscoveryLabels.sanitize("plain_name1")).isEqualTo("plain_name1");
    assertThat(DiscoveryLabels.sanitize("é")).isEqualTo("_");
  }
}
