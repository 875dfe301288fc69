package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.backend.Rollups;
import dev.infermon.server.demo.Demo;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.Tsdb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} with {@code llm.dashboard.rollups} on (the default), over {@code infermon demo}'s
 * machinery: after the demo's 30 minutes of backfill the writer's catch-up stores the dashboard's
 * default queries from the history's start on, in {@code <data>/rollups}, and goes on live (its
 * newest step, on {@code /metrics}, passes the start). Every wait is bounded.
 */
class RollupsServeTest {
  @TempDir Path dir;

  @Test
  void theCatchUpStoresTheBackfilledHistoryAndTheWriterGoesOn() throws Exception {
    FleetConfig fleet =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .build();
    long started = System.currentTimeMillis();
    Path store;
    try (Demo demo =
        Demo.start(
            new Demo.Options(fleet, List.of(), Duration.ofMinutes(30), Duration.ofSeconds(5)),
            (config, workDir) -> IncidentApiTest.settings(config, workDir),
            "test",
            new PrintWriter(new StringWriter()))) {
      store = demo.workDir().resolve("data").resolve("rollups");
      assertThat(store).isDirectory();
      // the catch-up, then live runs: the newest step written passes the start (bounded wait)
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (newestStep(demo) * 1000 <= started + 10_000 && System.nanoTime() < deadline) {
        Thread.sleep(500);
      }
      Thread.sleep(2_000); // the write-ahead log's sync interval
      // the demo deletes its work directory at close, and the store is locked while it runs
      Path copy = dir.resolve("rollups");
      try (var files = Files.walk(store)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          if (!p.getFileName().toString().equals("lock")) {
            Files.copy(p, copy.resolve(store.relativize(p).toString()));
          }
        }
      }
      store = copy;
    }
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    Set<String> queries = new HashSet<>();
    try (Tsdb db = Tsdb.open(store);
        Querier q = db.querier()) {
      SeriesSet set =
          q.select(
              false, Long.MIN_VALUE, Long.MAX_VALUE, List.of(Matcher.metricName(Rollups.STEPS)));
      while (set.next()) {
        queries.add(set.at().labels().get("__rollup_query__"));
        SampleIterator it = set.at().iterator();
        while (it.next()) {
          first = Math.min(first, it.timestamp());
          last = Math.max(last, it.timestamp());
        }
      }
      SeriesSet answers =
          q.select(
              false,
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              List.of(Matcher.equal(Labels.METRIC_NAME, Rollups.SERIES)));
      assertThat(answers.next())
          .as("answers beside %d markers' queries from %d to %d", queries.size(), first, last)
          .isTrue();
    }
    assertThat(queries).hasSizeGreaterThan(20);
    assertThat(first).as("from the backfill's start").isLessThan(started - 25 * 60_000);
    assertThat(last).as("live, a few intervals behind").isGreaterThan(started);
  }

  /** {@code infermon_rollups_newest_step_timestamp_seconds} from the server's own metrics. */
  private static double newestStep(Demo demo) throws Exception {
    String body =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(demo.uiUrl().replaceAll("/$", "") + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    for (String line : body.split("\n")) {
      if (line.startsWith("infermon_rollups_newest_step_timestamp_seconds ")) {
        return Double.parseDouble(line.substring(line.indexOf(' ') + 1));
      }
    }
    return 0;
  }
}
