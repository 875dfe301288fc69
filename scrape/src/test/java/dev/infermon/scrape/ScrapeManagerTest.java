package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The manager end to end with real HTTP targets: a bad target does not disturb a good one, the
 * targets API shows health and labels, and a removed target's series go stale.
 */
class ScrapeManagerTest {
  private final TestTargets targets = new TestTargets();
  private final RecordingStorage storage = new RecordingStorage();
  private final ScrapeManager manager = new ScrapeManager(storage, ScrapeMetrics.NOOP, 0);

  @AfterEach
  void close() {
    manager.close();
    targets.close();
  }

  private static Labels target(String address, String path) {
    return Labels.of(DiscoveryLabels.ADDRESS, address, DiscoveryLabels.METRICS_PATH, path);
  }

  private static void await(String what, BooleanSupplier cond) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!cond.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  @Test
  void badTargetDoesNotDisturbGoodOneAndRemovedTargetGoesStale() {
    targets.set("good", TestTargets.page("good_metric 1\n"));
    targets.set("bad", TestTargets.page("not a metric line at all {{{\n"));
    manager.applyConfig(
        Configs.load(
            """
            - job_name: pool
              scrape_interval: 200ms
              scrape_timeout: 150ms
              relabel_configs:
                - source_labels: [__meta_role]
                  regex: skip
                  action: drop
            """));
    String addr = targets.address();
    TargetGroup group =
        new TargetGroup(
            "g",
            List.of(
                target(addr, "/t/good"),
                target(addr, "/t/bad"),
                target(addr, "/t/skip").toBuilder().set("__meta_role", "skip").build()),
            Labels.of("team", "llm"));
    manager.accept(Map.of("pool", List.of(group)));

    // the bad target's parse error, not a scrape that timed out on a loaded machine
    await(
        "both targets scraped twice, the bad one to its parse error",
        () ->
            manager.activeTargets().get("pool").stream().allMatch(t -> t.lastScrape() != null)
                && storage.metric("good_metric").size() >= 2
                && manager.activeTargets().get("pool").stream()
                    .anyMatch(
                        t ->
                            t.scrapeUrl().endsWith("/t/bad")
                                && t.lastError() != null
                                && t.lastError().contains("line 1")));
    Map<String, List<TargetStatus>> active = manager.activeTargets();
    assertThat(active.get("pool")).hasSize(2);
    TargetStatus bad =
        active.get("pool").stream().filter(t -> t.scrapeUrl().endsWith("/t/bad")).findFirst().get();
    TargetStatus good =
        active.get("pool").stream()
            .filter(t -> t.scrapeUrl().endsWith("/t/good"))
            .findFirst()
            .get();
    assertThat(bad.health()).isEqualTo(TargetHealth.DOWN);
    assertThat(bad.lastError()).contains("line 1");
    assertThat(good.health()).isEqualTo(TargetHealth.UP);
    assertThat(good.scrapeUrl()).isEqualTo("http://" + addr + "/t/good");
    assertThat(good.labels()).isEqualTo(Labels.of("instance", addr, "job", "pool", "team", "llm"));
    assertThat(good.discoveredLabels().get("__metrics_path__")).isEqualTo("/t/good");
    assertThat(good.scrapeInterval()).isEqualTo(Duration.ofMillis(200));
    assertThat(manager.droppedTargets().get("pool")).hasSize(1);
    assertThat(storage.metric("good_metric").get(0).labels().get("team")).isEqualTo("llm");

    manager.accept(Map.of("pool", List.of()));
    assertThat(manager.activeTargets().get("pool")).isEmpty();
    List<RecordingStorage.Sample> good2 = storage.metric("good_metric");
    assertThat(good2.get(good2.size() - 1).stale())
        .as("last sample is a staleness marker")
        .isTrue();
  }

  @Test
  void removedScrapeConfigStopsItsPool() {
    targets.set("a", TestTargets.page("a_metric 1\n"));
    manager.applyConfig(
        Configs.load("- job_name: p\n  scrape_interval: 200ms\n  scrape_timeout: 150ms\n"));
    manager.accept(
        Map.of(
            "p",
            List.of(
                new TargetGroup("0", List.of(target(targets.address(), "/t/a")), Labels.EMPTY))));
    await("a scrape", () -> !storage.metric("a_metric").isEmpty());
    manager.applyConfig(List.of());
    assertThat(manager.activeTargets()).isEmpty();
    List<RecordingStorage.Sample> a = storage.metric("a_metric");
    assertThat(a.get(a.size() - 1).stale()).isTrue();
  }
}
