package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.LoraAdapter;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.simulator.vllm.VllmLora;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model filter's adapter choices on a lightly loaded fleet, where an adapter's requests come
 * and go between two steps of the window: every adapter a pod listed at some scrape of the window
 * is offered under its model, and no other.
 */
class LoraListingTest {
  private static final List<String> MODELS = List.of("meta-llama/Llama-3.1-8B-Instruct", "org/b");
  private static SimulatedFleet fleet;
  private static DashboardService service;

  /** Per scrape time: the "model|adapter" pairs some pod listed, running or waiting. */
  private static final Map<Long, Set<String>> listed = new TreeMap<>();

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .seed(7)
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(MODELS)
            .lora(new LoraAdapters(List.of("sql", "chat"), 2))
            .build();
    fleet = new SimulatedFleet(config, false);
    // scraped every second, as the browser tests' harness does: many scrapes per query step
    new FleetScrape(fleet.storage, false, fleet::targetLabels)
        .run(
            fleet.fleet,
            Duration.ofMinutes(4),
            Duration.ofSeconds(1),
            snap -> {
              Set<String> at = new TreeSet<>();
              for (InferencePod p : fleet.fleet.pods()) {
                VllmLora l = ((VllmPod) p).metrics(0).lora();
                for (String a : List.of("sql", "chat")) {
                  if (l.running(a) + l.waiting(a) > 0) {
                    at.add(p.info().model() + "|" + a);
                  }
                }
              }
              listed.put(snap.timeMillis(), at);
            });
    service = new DashboardService(QueryStack.of(fleet.backend), Catalog.builtIn());
  }

  private static Set<String> listedBetween(long from, long to) {
    Set<String> out = new TreeSet<>();
    listed.forEach((t, at) -> out.addAll(t >= from && t <= to ? at : Set.of()));
    return out;
  }

  @Test
  void everyAdapterListedAtSomeScrapeOfTheWindowIsOffered() {
    int windows = 0;
    for (long start = SimulatedFleet.START + 5_000;
        start + 30_000 <= fleet.now();
        start += 7_000, windows++) {
      long end = start + 30_000;
      Set<String> got = new TreeSet<>();
      for (LoraAdapter a : service.adapters(Filters.NONE, start, end)) {
        got.add(a.model() + "|" + a.adapter());
      }
      assertThat(got).as("offered in [%d, %d]", start, end).containsAll(listedBetween(start, end));
      // a step looks back one step (15 s here): an adapter listed just before may count too
      assertThat(listedBetween(start - 15_000, end)).containsAll(got);
    }
    assertThat(windows).isGreaterThan(20);
  }
}
