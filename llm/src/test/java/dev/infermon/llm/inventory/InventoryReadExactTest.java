package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.replay.Capture;
import dev.infermon.simulator.replay.CaptureException;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.simulator.testing.ReplayScrape;
import dev.infermon.storage.Appender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The stored inventory's shortcuts change nothing it reports: over a mixed simulated fleet (vLLM V1
 * and V0, SGLang, TGI, NIM, Dynamo, DCGM) beside every real capture replayed, each target equals
 * {@link ReferenceInventory}'s (every series read one by one, every target detected on its own), in
 * a storage that shares names arrays between series as the head does. And the cache's reuse past
 * its age ({@link InventoryCache.Watermark}) gives the answer a fresh read gives: a series created
 * after the previous read, at or before its time, is in the next answer; a target gone quiet loses
 * its activity at a later time.
 */
class InventoryReadExactTest {
  private static final long START = 1_780_000_000_000L;
  private static final long WINDOW = 10 * 60_000;
  private static final Catalog CATALOG = Catalog.builtIn();

  @Test
  void eachTargetIsTheReferencesOverAMixedFleetAndTheCaptures() {
    InterningStorage storage = new InterningStorage();
    long now = fleetAndCaptures(storage);
    QueryBackend backend = new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
    StoredInventory stored = new StoredInventory(CATALOG);
    // at the newest scrape, ahead of it (the UI's end rounded up), and in the past
    for (long t : new long[] {now, now + 75_000, now - 7 * 60_000}) {
      Inventory want = new ReferenceInventory(CATALOG).read(backend, t, WINDOW);
      Inventory got = stored.read(backend, t, WINDOW);
      assertThat(want.engines()).contains("vllm", "sglang", "tgi", "dcgm");
      assertThat(got.targets()).hasSameSizeAs(want.targets());
      for (int i = 0; i < want.targets().size(); i++) {
        assertThat(got.targets().get(i))
            .as("target %d at %d", i, t)
            .isEqualTo(want.targets().get(i));
      }
      assertThat(got).isEqualTo(want);
    }
  }

  @Test
  void aSeriesCreatedAtOrBeforeTheTimeAfterTheReadIsInTheNextAnswer() {
    InterningStorage storage = new InterningStorage();
    long now = fleetAndCaptures(storage);
    QueryBackend backend =
        new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS), null, storage);
    AtomicLong clock = new AtomicLong();
    AtomicInteger reads = new AtomicInteger();
    StoredInventory stored = new StoredInventory(CATALOG);
    InventoryCache cache =
        new InventoryCache(
            (t, w) -> {
              reads.incrementAndGet();
              return stored.read(backend, t, w);
            },
            clock::get,
            10,
            InventoryService.watermark(backend));
    long past = now - 5 * 60_000;
    Inventory first = cache.get(past, WINDOW);
    // scrapes after the time and older than the age: nothing it read changed, one read
    append(storage, "vllm:num_requests_running", "late:8000", now + 15_000, 1);
    clock.addAndGet(11);
    assertThat(cache.get(past, WINDOW)).isSameAs(first);
    assertThat(reads).hasValue(1);
    // a new target's first sample before the time: read again, and it is there
    append(storage, "vllm:num_requests_running", "new:8000", past - 60_000, 1);
    clock.addAndGet(11);
    Inventory second = cache.get(past, WINDOW);
    assertThat(reads).hasValue(2);
    assertThat(second).isEqualTo(stored.read(backend, past, WINDOW)).isNotEqualTo(first);
    assertThat(second.targets()).anyMatch(t -> t.label("instance").equals("new:8000"));
    // within the age the answer is kept whatever was committed (the staleness bound)
    append(storage, "vllm:num_requests_running", "newer:8000", past - 60_000, 1);
    assertThat(cache.get(past, WINDOW)).isSameAs(second);
  }

  @Test
  void aTargetGoneQuietLosesItsActivityAtALaterTime() {
    InterningStorage storage = new InterningStorage();
    for (long t = START; t <= START + WINDOW; t += 15_000) {
      append(storage, "vllm:num_requests_running", "p0:8000", t, (t / 15_000) % 3);
    }
    QueryBackend backend =
        new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS), null, storage);
    AtomicLong clock = new AtomicLong();
    StoredInventory stored = new StoredInventory(CATALOG);
    InventoryCache cache =
        new InventoryCache(
            (t, w) -> stored.read(backend, t, w),
            clock::get,
            10,
            InventoryService.watermark(backend));
    long end = START + WINDOW;
    assertThat(activity(cache.get(end, WINDOW))).isEqualTo(FamilyInfo.Activity.CHANGING);
    // from here on the gauge holds at 2
    for (long t = end + 15_000; t <= end + 2 * WINDOW; t += 15_000) {
      append(storage, "vllm:num_requests_running", "p0:8000", t, 2);
    }
    clock.addAndGet(11);
    long later = end + 2 * WINDOW;
    Inventory quiet = cache.get(later, WINDOW);
    assertThat(activity(quiet)).isEqualTo(FamilyInfo.Activity.FLAT);
    assertThat(quiet).isEqualTo(stored.read(backend, later, WINDOW));
    assertThat(activity(cache.get(end, WINDOW))).isEqualTo(FamilyInfo.Activity.CHANGING);
  }

  private static FamilyInfo.Activity activity(Inventory inv) {
    return inv.targets().get(0).families().get("vllm:num_requests_running").activity();
  }

  /** The mixed fleet and every capture scraped for 15 minutes; returns the newest scrape's time. */
  private static long fleetAndCaptures(InterningStorage storage) {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(3)
                .legacyVllmPods(2)
                .sglangPods(2)
                .tgiPods(1)
                .nimPods(1)
                .dynamoPods(1)
                .build(),
            START);
    new FleetScrape(storage, false).run(fleet, Duration.ofMinutes(15));
    List<ReplayTarget> captures = new ArrayList<>();
    int i = 0;
    for (Captures.Entry e : Captures.all()) {
      captures.add(e.target("pod", "capture-" + i++));
    }
    // SGLang 0.5.1's page without its tp_rank and pp_rank: the same families, labels that date an
    // older release (a detection keyed by family names alone gives both one range)
    captures.add(
        page(
            "sglang/02-without-ranks.prom",
            Captures.get("02_v0.5.1_issue13485_tp_labels_TRUNCATED.prom")
                .text()
                .replace(",pp_rank=\"0\",tp_rank=\"0\"", ""),
            "capture-unranked"));
    // one family's series with different label names, in between those of another target
    captures.add(
        page(
            "vllm/mixed-shapes.txt",
            """
            # TYPE vllm:num_requests_running gauge
            vllm:num_requests_running{engine="0",model_name="m"} 1
            vllm:num_requests_running{model_name="m"} 2
            vllm:num_requests_running{engine="1",model_name="m",zz="a"} 3
            # TYPE vllm:e2e_request_latency_seconds histogram
            vllm:e2e_request_latency_seconds_bucket{model_name="m",le="0.5"} 1
            vllm:e2e_request_latency_seconds_bucket{model_name="m",le="+Inf"} 2
            vllm:e2e_request_latency_seconds_bucket{engine="1",model_name="m",le="2.5"} 1
            vllm:e2e_request_latency_seconds_count{model_name="m"} 2
            vllm:e2e_request_latency_seconds_sum{model_name="m"} 1.5
            """,
            "capture-mixed"));
    long now = fleet.nowMillis();
    new ReplayScrape(storage, true).run(ReplayFleet.of(captures, START), START, now);
    return now;
  }

  private static ReplayTarget page(String path, String text, String pod) {
    try {
      Capture c = Capture.parse(path, text.getBytes(StandardCharsets.UTF_8));
      return ReplayTarget.of(Path.of(path), c, Map.of("pod", pod), ReplayTarget.DEFAULT_UPTIME);
    } catch (CaptureException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void append(
      InterningStorage storage, String name, String instance, long t, double v) {
    Appender a = storage.appender();
    a.append(
        0,
        Labels.builder()
            .set("__name__", name)
            .set("job", "inference")
            .set("instance", instance)
            .set("namespace", "ns")
            .set("pod", instance.substring(0, instance.indexOf(':')))
            .build(),
        t,
        v);
    a.commit();
  }
}
