package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A backfilled page lands exactly as a live scrape of the same page: same label sets (target
 * labels, {@code exported_*}, metric relabeling), same report series, same staleness behaviour.
 */
class BackfillTest {
  private static final String DCGM_YAML =
      """
      - job_name: dcgm
        metric_relabel_configs:
          - source_labels: [__name__]
            regex: DCGM_FI_DEV_XID_ERRORS
            action: drop
      """;

  private static TargetGroup group(String address) {
    return new TargetGroup(
        "0",
        List.of(Labels.of(DiscoveryLabels.ADDRESS, address)),
        Labels.of("namespace", "gpu-operator", "pod", "nvidia-dcgm-exporter-x7k2p"));
  }

  private static Set<Labels> labelSets(RecordingStorage s) {
    return s.samples().stream()
        .map(RecordingStorage.Sample::labels)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void backfilledSeriesCarryTheLabelsOfALiveScrape() throws Exception {
    String page = TestTargets.resource("lke-rtx4000ada-pod-attributed-xid.prom");
    ScrapeConfig cfg = Configs.one(DCGM_YAML);
    RecordingStorage live = new RecordingStorage();
    try (TestTargets targets = new TestTargets();
        ScrapeManager manager = new ScrapeManager(live, ScrapeMetrics.NOOP, 0)) {
      targets.set("dcgm", TestTargets.page(page));
      ScrapeConfig fast =
          Configs.one(
              DCGM_YAML + "  scrape_interval: 1s\n  scrape_timeout: 1s\n  metrics_path: /t/dcgm\n");
      manager.applyConfig(List.of(fast));
      manager.accept(Map.of("dcgm", List.of(group(targets.address()))));
      long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (live.values("up", targets.address()).stream().noneMatch(v -> v == 1.0)) {
        assertThat(System.nanoTime()).as("waiting for a good live scrape").isLessThan(deadline);
        Thread.sleep(20);
      }
    }
    String address = live.metric("up").get(0).labels().get("instance");
    RecordingStorage backfilled = new RecordingStorage();
    ScrapeConfig sameTarget = Configs.one(DCGM_YAML + "  metrics_path: /t/dcgm\n");
    List<Backfill> bs = Backfill.targets(sameTarget, group(address), backfilled);
    assertThat(bs).hasSize(1);

    assertThat(bs.get(0).append(1_000, page, TestTargets.TEXT)).isTrue();

    Set<Labels> want = new TreeSet<>(labelSets(live));
    assertThat(labelSets(backfilled)).isEqualTo(want);
    assertThat(bs.get(0).url()).isEqualTo("http://" + address + "/t/dcgm");
    Labels temp = backfilled.metric("DCGM_FI_DEV_GPU_TEMP").get(0).labels();
    assertThat(temp.get("exported_pod")).isEqualTo("cuda-75454ffb9f-8ljq7");
    assertThat(temp.get("pod")).isEqualTo("nvidia-dcgm-exporter-x7k2p");
    assertThat(backfilled.metric("DCGM_FI_DEV_XID_ERRORS")).isEmpty();
    assertThat(bs.get(0).labels())
        .isEqualTo(
            Labels.of(
                "instance", address,
                "job", "dcgm",
                "namespace", "gpu-operator",
                "pod", "nvidia-dcgm-exporter-x7k2p"));
  }

  @Test
  void pagesAreStampedWithTheirTimeAndVanishedSeriesGoStale() {
    RecordingStorage s = new RecordingStorage();
    Backfill b = Backfill.targets(Configs.one("- job_name: sim\n"), group("127.0.0.1:9"), s).get(0);

    assertThat(b.append(15_000, "a 1\nb 2\n", TestTargets.TEXT)).isTrue();
    assertThat(b.append(30_000, "a 3\n", TestTargets.TEXT)).isTrue();
    assertThat(b.append(45_000, "a 4\n{{{ garbage\n", TestTargets.TEXT)).isFalse();
    b.fail(60_000, "connection refused");

    assertThat(s.metric("a"))
        .extracting(RecordingStorage.Sample::t)
        .containsExactly(15_000L, 30_000L, 45_000L);
    assertThat(s.metric("a").get(2).stale()).isTrue(); // the bad page: markers, none of its samples
    assertThat(s.metric("b"))
        .extracting(RecordingStorage.Sample::t)
        .containsExactly(15_000L, 30_000L);
    assertThat(s.metric("b").get(1).stale()).isTrue();
    assertThat(s.values("up", "127.0.0.1:9")).containsExactly(1.0, 1.0, 0.0, 0.0);
    assertThat(s.metric("scrape_samples_scraped"))
        .extracting(RecordingStorage.Sample::v)
        .startsWith(2.0, 1.0);
  }

  @Test
  void droppedTargetsAreLeftOutAndInvalidOnesNamed() {
    RecordingStorage s = new RecordingStorage();
    ScrapeConfig dropAll =
        Configs.one(
            "- job_name: sim\n  relabel_configs:\n    - regex: .*\n      source_labels: [pod]\n"
                + "      action: drop\n");
    assertThat(Backfill.targets(dropAll, group("127.0.0.1:9"), s)).isEmpty();

    TargetGroup noAddress = new TargetGroup("0", List.of(Labels.of("a", "b")), Labels.EMPTY);
    assertThatThrownBy(() -> Backfill.targets(Configs.one("- job_name: sim\n"), noAddress, s))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no address");
  }
}
