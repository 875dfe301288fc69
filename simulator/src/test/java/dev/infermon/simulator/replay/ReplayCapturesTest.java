package dev.infermon.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.model.labels.Labels;
import dev.infermon.simulator.http.ReplayServer;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.textparse.Format;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every real capture served live by one {@link ReplayServer} and scraped twice, at the start and 15
 * minutes later (uptime 1 h: factor 1.25), by the real parser: the first page is the capture
 * without its cut lines; then counters and histogram series have grown by the factor and stay
 * monotone, buckets cumulative, {@code _count} equal to {@code +Inf}, mean and bucket shares kept,
 * gauges equal to the capture; each target carries the labels discovery would give it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayCapturesTest {
  private static final long T0 = 1_790_000_000_000L;
  private static final Duration LATER = Duration.ofMinutes(15);
  private static final double FACTOR = 1.25;
  private static final String ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";

  /** The power gauge on the same GPU as an energy series. */
  private static Labels power(Labels energy) {
    return energy.toBuilder().set("__name__", "DCGM_FI_DEV_POWER_USAGE").build();
  }

  /**
   * What the replay of each capture must show.
   *
   * @param path the capture
   * @param backend the {@code backend} label the page's names give ("" for none)
   * @param job the scrape job
   * @param dropped the lines dropped as cut
   * @param counter a counter that is not zero in the capture, so must grow (null: none)
   * @param histogram a histogram with observations, whose shares must stay (null: none)
   */
  record Row(
      String path,
      String backend,
      String job,
      List<Integer> dropped,
      String counter,
      String histogram) {}

  static Stream<Row> rows() {
    return Stream.of(
        new Row(
            "vllm/vllm-0.4.3.txt",
            "vllm",
            "inference",
            List.of(),
            "vllm:prompt_tokens_total",
            "vllm:time_to_first_token_seconds"),
        new Row(
            "vllm/vllm-0.11.x-idle.txt",
            "vllm",
            "inference",
            List.of(),
            "python_gc_objects_collected_total",
            null), // idle: its engine's histograms are empty, and stay so
        new Row(
            "vllm/vllm-v0-ray2.32-serve_rayprefix.txt",
            "vllm",
            "inference",
            List.of(),
            "ray_vllm:prompt_tokens_total",
            "ray_vllm:time_to_first_token_seconds"),
        new Row(
            "sglang/01_v0.4.1_docs_single_request.prom",
            "sglang",
            "inference",
            List.of(),
            "sglang:prompt_tokens_total",
            "sglang:time_to_first_token_seconds"),
        new Row(
            "sglang/02_v0.5.1_issue13485_tp_labels_TRUNCATED.prom",
            "sglang",
            "inference",
            List.of(13), // a HELP cut mid-sentence, its family's samples cut away
            null,
            null),
        new Row(
            "sglang/03_v0.5.3-0.5.6_aibrix1614_dp_attention_pid_label_TRUNCATED.prom",
            "sglang",
            "inference",
            List.of(12), // a sample cut inside a label value
            null,
            null),
        new Row(
            "dcgm/upcloud-l40s-single-gpu-no-pod.prom",
            "dcgm",
            "dcgm",
            List.of(),
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
            null),
        new Row(
            "dcgm/lke-rtx4000ada-pod-attributed-xid.prom",
            "dcgm",
            "dcgm",
            List.of(),
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
            null),
        new Row(
            "vllm/vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt",
            "vllm",
            "inference",
            List.of(),
            "vllm:prompt_tokens_total",
            "vllm:time_to_first_token_seconds"),
        new Row(
            "vllm/vllm-pr28792_api-server-count-8_pid-label_EXCERPT.prom",
            "vllm",
            "inference",
            List.of(), // cut at a line's end: nothing to drop
            null,
            null),
        new Row(
            "nim/nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt",
            "",
            "inference",
            List.of(),
            "prompt_tokens_total",
            "time_to_first_token_seconds"),
        new Row(
            "tgi/tgi-2.4-3.x_datadog-e2e.txt",
            "tgi",
            "inference",
            List.of(),
            "tgi_request_success", // a counter without _total, typed by its TYPE line
            "tgi_request_duration"));
  }

  private final TestClock clock = new TestClock(T0);
  private final HttpClient http = HttpClient.newHttpClient();
  private ReplayServer server;

  @BeforeAll
  void serveEveryCapture() throws Exception {
    List<ReplayTarget> targets = new ArrayList<>();
    for (Captures.Entry e : Captures.all()) {
      targets.add(e.target());
    }
    server =
        ReplayServer.start(
            ReplayFleet.of(targets, T0), new ReplayServer.Options("127.0.0.1", 0), clock);
  }

  @AfterAll
  void stop() {
    server.close();
  }

  @Test
  void theTableCoversEveryCapture() {
    assertThat(rows().map(Row::path))
        .containsExactlyElementsOf(Captures.all().stream().map(Captures.Entry::path).toList());
  }

  @ParameterizedTest
  @MethodSource("rows")
  void servedLiveAndScrapedTwice(Row row) throws Exception {
    Captures.Entry entry = Captures.get(row.path());
    ReplayTarget target = target(row.path());
    assertThat(target.capture().droppedLines()).isEqualTo(row.dropped());

    clock.set(T0);
    HttpResponse<String> first = scrape(target);
    clock.set(T0 + LATER.toMillis());
    HttpResponse<String> later = scrape(target);

    assertThat(first.headers().firstValue("Content-Type"))
        .hasValue(Format.TEXT.contentType()); // every capture here is text 0.0.4
    assertThat(first.body()).as("the start is the capture").isEqualTo(withoutCut(entry, row));
    ScrapedPage captured = ScrapedPage.parseCapture(entry.bytes());
    ScrapedPage p1 = ScrapedPage.parse(first.body(), contentType(first));
    ScrapedPage p2 = ScrapedPage.parse(later.body(), contentType(later));
    assertThat(p1.samples()).isEqualTo(captured.samples());
    assertThat(p2.bySeries().keySet()).containsExactlyElementsOf(p1.bySeries().keySet());

    for (ScrapedPage.Sample s1 : p1.samples()) {
      ScrapedPage.Sample s2 = p2.bySeries().get(s1.labels());
      if (s1.advances()) {
        assertThat(s2.value()).as("%s grows", s1.labels()).isGreaterThanOrEqualTo(s1.value());
        ScrapedPage.Sample watts =
            s1.name().equals(ENERGY) ? p1.bySeries().get(power(s1.labels())) : null;
        if (watts != null) {
          // since GPU boot: it grows at the power draw beside it (W x 1000 mJ/s), not by FACTOR
          double want = s1.value() + watts.value() * 1000 * LATER.toSeconds();
          assertThat(s2.value())
              .as("%s at its power draw", s1.labels())
              .isIn(want, Math.floor(want));
        } else {
          assertThat(s2.value())
              .as("%s at the steady rate", s1.labels())
              .isIn(s1.value() * FACTOR, Math.floor(s1.value() * FACTOR));
        }
      } else {
        assertThat(Double.compare(s2.value(), s1.value()))
            .as("%s stays as captured", s1.labels())
            .isZero();
      }
    }
    consistent(p1);
    consistent(p2);
    if (row.counter() != null) {
      ScrapedPage.Sample c1 = first(p1, row.counter());
      assertThat(c1.value()).isPositive();
      assertThat(p2.bySeries().get(c1.labels()).value()).isGreaterThan(c1.value());
    }
    if (row.histogram() != null) {
      sharesKept(p1, p2, row.histogram());
    }
  }

  @Test
  void aTargetsWorkloadFollowsItsPodUnlessNamed() {
    Captures.Entry vllm =
        Captures.all().stream().filter(e -> e.path().startsWith("vllm/")).findFirst().orElseThrow();
    assertThat(vllm.target("pod", "p1").labels())
        .containsEntry("pod", "p1")
        .containsEntry("workload_name", "p1");
    assertThat(vllm.target("workload_name", "qwen").labels())
        .containsEntry("workload_name", "qwen");
    assertThat(vllm.target("workload_name", "").labels()).doesNotContainKey("workload_name");
  }

  @ParameterizedTest
  @MethodSource("rows")
  void theInventoryGivesEachTargetItsLabels(Row row) throws Exception {
    ReplayTarget target = target(row.path());
    String pod = ReplayTarget.podName(java.nio.file.Path.of(row.path()));
    Map<String, String> expected =
        new java.util.HashMap<>(Map.of("namespace", "replay", "pod", pod));
    if (!row.backend().isEmpty()) {
      expected.put("backend", row.backend());
    }
    // discovery gives every inference target its workload (TGI and llama.cpp name models by it)
    if (row.job().equals("inference")) {
      expected.put("workload_name", pod);
    }
    assertThat(target.labels()).containsExactlyInAnyOrderEntriesOf(expected);
    assertThat(target.job()).isEqualTo(row.job());
    String inventory =
        http.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.controlPort() + "/-/inventory"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(inventory)
        .contains(
            "{\"name\":\""
                + pod
                + "\",\"url\":\""
                + server.url(target)
                + "\",\"job\":\""
                + row.job()
                + "\"")
        .contains("\"pod\": \"" + pod + "\"");
  }

  /** Buckets cumulative, {@code _count} equal to the {@code +Inf} bucket, in every histogram. */
  private static void consistent(ScrapedPage page) {
    for (Map.Entry<Labels, ScrapedPage.Histogram> e : page.histograms().entrySet()) {
      ScrapedPage.Histogram h = e.getValue();
      double previous = 0;
      for (double v : h.buckets.values()) {
        assertThat(v).as("%s cumulative", e.getKey()).isGreaterThanOrEqualTo(previous);
        previous = v;
      }
      assertThat(h.buckets.lastKey()).isEqualTo(Double.POSITIVE_INFINITY);
      assertThat(h.count).as("%s _count = +Inf", e.getKey()).isEqualTo(previous);
    }
  }

  /** Each bucket's share of {@code _count}, and the mean, as in the capture. */
  private static void sharesKept(ScrapedPage p1, ScrapedPage p2, String family) {
    int seen = 0;
    for (Map.Entry<Labels, ScrapedPage.Histogram> e : p1.histograms().entrySet()) {
      if (!e.getKey().get("__name__").equals(family) || !(e.getValue().count > 0)) {
        continue;
      }
      ScrapedPage.Histogram h1 = e.getValue();
      ScrapedPage.Histogram h2 = p2.histograms().get(e.getKey());
      assertThat(h2.count).isGreaterThan(h1.count);
      assertThat(h2.sum / h2.count).isCloseTo(h1.sum / h1.count, within(1e-12 * h1.sum));
      for (Map.Entry<Double, Double> b : h1.buckets.entrySet()) {
        assertThat(h2.buckets.get(b.getKey()) / h2.count)
            .as("%s le=%s share", family, b.getKey())
            .isCloseTo(b.getValue() / h1.count, within(1e-12));
      }
      seen++;
    }
    assertThat(seen).as("observed series of " + family).isPositive();
  }

  private static ScrapedPage.Sample first(ScrapedPage page, String name) {
    return page.samples().stream()
        .filter(s -> s.name().equals(name) && s.value() > 0)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no non-zero " + name));
  }

  /** The capture's text without its dropped lines, every line ending in a newline. */
  private static String withoutCut(Captures.Entry entry, Row row) {
    String[] lines = entry.text().split("\n", -1);
    StringBuilder sb = new StringBuilder();
    int n = entry.text().endsWith("\n") ? lines.length - 1 : lines.length;
    for (int i = 0; i < n; i++) {
      if (!row.dropped().contains(i + 1)) {
        sb.append(lines[i]).append('\n');
      }
    }
    return sb.toString();
  }

  private ReplayTarget target(String path) {
    return server.fleet().target(ReplayTarget.podName(java.nio.file.Path.of(path)));
  }

  private HttpResponse<String> scrape(ReplayTarget target) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url(target))).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(r.statusCode()).isEqualTo(200);
    return r;
  }

  private static String contentType(HttpResponse<?> r) {
    return r.headers().firstValue("Content-Type").orElse(null);
  }
}
