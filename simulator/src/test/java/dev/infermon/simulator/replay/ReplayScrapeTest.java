package dev.infermon.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.testing.ReplayScrape;
import dev.infermon.storage.Querier;
import dev.infermon.storage.testing.MemoryStorage;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The test-jar's {@link ReplayScrape}: every capture scraped for ten minutes into a real storage
 * carries its target labels on every series, as a scrape with {@code honor_labels: false} stores
 * it, and its counters grow at the captured value per uptime.
 */
class ReplayScrapeTest {
  private static final long T0 = 1_790_000_000_000L;

  @Test
  void everyCaptureScrapedIntoStorageCarriesItsTargetLabels() throws Exception {
    List<ReplayTarget> targets = new ArrayList<>();
    for (Captures.Entry e : Captures.all()) {
      targets.add(e.target());
    }
    ReplayFleet fleet = ReplayFleet.of(targets, T0);
    MemoryStorage storage = new MemoryStorage();
    long end = T0 + Duration.ofMinutes(10).toMillis();
    new ReplayScrape(storage, false).run(fleet, T0, end);

    try (Querier q = storage.querier()) {
      for (ReplayTarget t : targets) {
        Map<Labels, List<Sample>> series =
            Samples.readAll(q.select(true, T0, end, List.of(Matcher.equal("pod", t.name()))));
        assertThat(series.size())
            .as("%s: its samples and up", t.name())
            .isEqualTo(t.capture().samples() + 1);
        for (Map.Entry<Labels, List<Sample>> s : series.entrySet()) {
          Labels l = s.getKey();
          t.labels().forEach((k, v) -> assertThat(l.get(k)).as("%s %s", l, k).isEqualTo(v));
          assertThat(l.get("job")).isEqualTo(t.job());
          assertThat(l.get("instance")).startsWith(t.name() + ":");
          assertThat(s.getValue()).as("%s: one sample per 15 s", l).hasSize(41);
        }
      }
      // the exporter's own attribution moves aside for the target's pod and namespace
      String lke = ReplayTarget.podName(java.nio.file.Path.of("lke-rtx4000ada-pod-attributed-xid"));
      Map<Labels, List<Sample>> gpu =
          Samples.readAll(
              q.select(
                  true,
                  T0,
                  end,
                  List.of(
                      Matcher.equal("pod", lke),
                      Matcher.metricName("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"))));
      Labels energy = gpu.keySet().iterator().next();
      assertThat(energy.get("exported_pod")).isEqualTo("cuda-75454ffb9f-8ljq7");
      assertThat(energy.get("exported_namespace")).isEqualTo("default");
      List<Sample> samples = gpu.get(energy);
      double first = samples.get(0).v();
      double last = samples.get(samples.size() - 1).v();
      // energy since GPU boot grows at the captured 40.979 W (x 1000 mJ/s) for the 10 minutes
      assertThat(last).isEqualTo(Math.floor(first + 40.979 * 1000 * 600));
    }
  }
}
