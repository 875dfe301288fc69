package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Parsing and appending one page: labels, honor_labels, relabeling, limits, staleness. */
class IngestTest {
  private static final Labels DCGM_TARGET =
      Labels.of(
          "job", "dcgm",
          "instance", "10.0.0.9:9400",
          "namespace", "gpu-operator",
          "pod", "nvidia-dcgm-exporter-x7k2p",
          "container", "nvidia-dcgm-exporter",
          "backend", "dcgm");

  private final RecordingStorage storage = new RecordingStorage();

  private Ingest ingest(ScrapeConfig cfg, Labels target) {
    return new Ingest(PoolSettings.of(cfg), target, new ScrapeCache());
  }

  private Ingest.Result run(Ingest in, String page, long t) {
    byte[] b = page.getBytes(StandardCharsets.UTF_8);
    Appender app = storage.appender();
    Ingest.Result r = in.append(app, b, b.length, TestTargets.TEXT, t);
    if (r.error() == null) {
      app.commit();
    } else {
      app.rollback();
    }
    return r;
  }

  @Test
  void dcgmPodLabelsBecomeExportedUnderDefaultHonorLabels() {
    String page = TestTargets.resource("lke-rtx4000ada-pod-attributed-xid.prom");
    run(ingest(Configs.one("- job_name: dcgm\n"), DCGM_TARGET), page, 1000);

    Labels s = storage.metric("DCGM_FI_DEV_GPU_TEMP").get(0).labels();
    assertThat(s.get("pod")).isEqualTo("nvidia-dcgm-exporter-x7k2p");
    assertThat(s.get("namespace")).isEqualTo("gpu-operator");
    assertThat(s.get("container")).isEqualTo("nvidia-dcgm-exporter");
    assertThat(s.get("exported_pod")).isEqualTo("cuda-75454ffb9f-8ljq7");
    assertThat(s.get("exported_namespace")).isEqualTo("default");
    assertThat(s.get("exported_container")).isEqualTo("cuda");
    assertThat(s.has("pod_uid")).isFalse(); // empty values do not exist
  }

  @Test
  void honorLabelsKeepsTheScrapedValues() {
    String page = TestTargets.resource("lke-rtx4000ada-pod-attributed-xid.prom");
    run(ingest(Configs.one("- job_name: dcgm\n  honor_labels: true\n"), DCGM_TARGET), page, 1000);

    Labels s = storage.metric("DCGM_FI_DEV_GPU_TEMP").get(0).labels();
    assertThat(s.get("pod")).isEqualTo("cuda-75454ffb9f-8ljq7");
    assertThat(s.get("namespace")).isEqualTo("default");
    assertThat(s.get("backend")).isEqualTo("dcgm"); // absent from the page: filled in
    assertThat(s.has("exported_pod")).isFalse();
  }

  @Test
  void cacheHoldsTheStoragesLabelsAndNotThePage() {
    ScrapeCache cache = new ScrapeCache();
    Ingest in = new Ingest(PoolSettings.of(Configs.one("- job_name: dcgm\n")), DCGM_TARGET, cache);
    String page = TestTargets.resource("lke-rtx4000ada-pod-attributed-xid.prom");
    run(in, page, 1000);
    int first = storage.appendedWith().size();
    run(in, page, 2000);

    List<Labels> second = storage.appendedWith().subList(first, storage.appendedWith().size());
    assertThat(second).isNotEmpty();
    // The second scrape names every series with the storage's own instance: no second copy kept.
    assertThat(second).allSatisfy(l -> assertThat(l).isSameAs(storage.storedInstance(l)));
    // And the cache does not keep the last page alive between scrapes.
    assertThat(cache.holdsPage()).isFalse();
  }

  /** One row of the mutate table: scraped labels, target labels, honor_labels, result. */
  record MutateCase(String name, Labels scraped, Labels target, boolean honor, Labels expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<MutateCase> mutateCases() {
    return Stream.of(
        new MutateCase(
            "no conflict",
            Labels.of("__name__", "m", "a", "1"),
            Labels.of("job", "j"),
            false,
            Labels.of("__name__", "m", "a", "1", "job", "j")),
        new MutateCase(
            "conflict moves scraped value to exported_",
            Labels.of("__name__", "m", "job", "scraped"),
            Labels.of("job", "j"),
            false,
            Labels.of("__name__", "m", "job", "j", "exported_job", "scraped")),
        new MutateCase(
            "exported_ already taken: one more prefix",
            Labels.of("__name__", "m", "job", "scraped", "exported_job", "taken"),
            Labels.of("job", "j"),
            false,
            Labels.of(
                "__name__",
                "m",
                "job",
                "j",
                "exported_job",
                "taken",
                "exported_exported_job",
                "scraped")),
        new MutateCase(
            "honor_labels keeps scraped, fills the rest",
            Labels.of("__name__", "m", "job", "scraped"),
            Labels.of("job", "j", "instance", "i"),
            true,
            Labels.of("__name__", "m", "job", "scraped", "instance", "i")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mutateCases")
  void mutateFollowsPrometheus(MutateCase c) {
    ScrapeConfig cfg = Configs.one("- job_name: j\n  honor_labels: " + c.honor() + "\n");
    assertThat(ingest(cfg, c.target()).mutate(c.scraped())).isEqualTo(c.expected());
  }

  @Test
  void metricRelabelingDropsAndRewrites() {
    ScrapeConfig cfg =
        Configs.one(
            """
            - job_name: j
              metric_relabel_configs:
                - source_labels: [__name__]
                  regex: drop_me.*
                  action: drop
                - source_labels: [x]
                  target_label: y
                  replacement: "y-$1"
            """);
    Ingest.Result r =
        run(ingest(cfg, Labels.of("job", "j")), "drop_me_total 1\nkeep{x=\"a\"} 2\n", 1000);
    assertThat(r.total()).isEqualTo(2);
    assertThat(r.added()).isEqualTo(1);
    assertThat(storage.samples()).extracting(s -> s.labels().get("y")).containsExactly("y-a");
  }

  /** A limit, the page that breaks it, and the error. */
  record LimitCase(String config, String page, String error) {
    @Override
    public String toString() {
      return error;
    }
  }

  static Stream<LimitCase> limitCases() {
    return Stream.of(
        new LimitCase("sample_limit: 2", "a 1\nb 2\nc 3\n", "sample limit exceeded"),
        new LimitCase(
            "label_limit: 2",
            "m{a=\"1\",b=\"2\"} 1\n",
            "label_limit exceeded (metric: m, number of labels: 4, limit: 2)"),
        new LimitCase(
            "label_name_length_limit: 9", // __name__ itself is 8 long and counts
            "m{longername=\"1\"} 1\n",
            "label_name_length_limit exceeded (metric: m, label name: longername, length: 10,"
                + " limit: 9)"),
        new LimitCase(
            "label_value_length_limit: 3",
            "m{a=\"abcdef\"} 1\n",
            "label_value_length_limit exceeded (metric: m, label name: a, value: \"abcdef\","
                + " length: 6, limit: 3)"),
        // Configured limits are the ones reported, past any ceiling of the parser's own.
        new LimitCase(
            "label_limit: 100",
            manyLabels(130),
            "label_limit exceeded (metric: m, number of labels: 132, limit: 100)"),
        new LimitCase(
            "label_name_length_limit: 1100",
            "m{" + "n".repeat(1200) + "=\"1\"} 1\n",
            "label_name_length_limit exceeded (metric: m, label name: "
                + "n".repeat(50)
                + ", length: 1200, limit: 1100)"),
        new LimitCase(
            "label_value_length_limit: 20000",
            "m{a=\"" + "v".repeat(20_001) + "\"} 1\n",
            "label_value_length_limit exceeded (metric: m, label name: a, value: \""
                + "v".repeat(50)
                + "\", length: 20001, limit: 20000)"));
  }

  /** A series {@code m} with {@code n} labels of its own. */
  private static String manyLabels(int n) {
    StringBuilder sb = new StringBuilder("m{");
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ",").append("l").append(i).append("=\"").append(i).append('"');
    }
    return sb.append("} 1\n").toString();
  }

  /** A page that Prometheus ingests when no limit is configured (0, the default, means none). */
  record UnlimitedCase(String name, String page) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<UnlimitedCase> unlimitedCases() {
    return Stream.of(
        new UnlimitedCase("130 labels on a series", manyLabels(130)),
        new UnlimitedCase("a 2 KiB label name", "m{" + "n".repeat(2048) + "=\"1\"} 1\n"),
        new UnlimitedCase("a 20 KiB label value", "m{a=\"" + "v".repeat(20 << 10) + "\"} 1\n"),
        new UnlimitedCase("a 200 KiB line", "m{a=\"" + "v".repeat(200 << 10) + "\"} 1\n"),
        new UnlimitedCase("a 65 MiB page", "# padding\n".repeat((65 << 20) / 10) + "m 1\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unlimitedCases")
  void unsetLimitsAreOff(UnlimitedCase c) {
    Ingest.Result r =
        run(ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j")), c.page(), 1000);
    assertThat(r.error()).isNull();
    assertThat(r.added()).isEqualTo(1);
    assertThat(storage.metric("m")).hasSize(1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limitCases")
  void overALimitTheWholePageFails(LimitCase c) {
    ScrapeConfig cfg = Configs.one("- job_name: j\n  " + c.config() + "\n");
    Ingest.Result r = run(ingest(cfg, Labels.of("job", "j")), c.page(), 1000);
    assertThat(r.error()).isEqualTo(c.error());
    assertThat(storage.samples()).isEmpty();
    assertThat(storage.rollbacks()).isEqualTo(1);
  }

  @Test
  void explicitTimestampsAreHonouredAndNeverMarkedStale() {
    Ingest in = ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j"));
    run(in, "with_ts 1 500\nwithout_ts 2\n", 1000);
    run(in, "other 3\n", 2000);
    assertThat(storage.metric("with_ts"))
        .extracting(RecordingStorage.Sample::t)
        .containsExactly(500L); // no marker: it had its own timestamp
    assertThat(storage.metric("without_ts"))
        .extracting(RecordingStorage.Sample::stale)
        .containsExactly(false, true);
  }

  @Test
  void honorTimestampsFalseUsesScrapeTime() {
    Ingest in =
        ingest(Configs.one("- job_name: j\n  honor_timestamps: false\n"), Labels.of("job", "j"));
    run(in, "with_ts 1 500\n", 1000);
    assertThat(storage.metric("with_ts"))
        .extracting(RecordingStorage.Sample::t)
        .containsExactly(1000L);
  }

  @Test
  void openMetricsPagesAreScrapedLeniently() {
    // A negative histogram _sum breaks an OpenMetrics family rule; Prometheus scrapes it anyway,
    // and so must we (the strict rules belong to `infermon check metrics`).
    String page =
        "# TYPE lat histogram\n"
            + "lat_bucket{le=\"1.0\"} 1\n"
            + "lat_bucket{le=\"+Inf\"} 2\n"
            + "lat_count 2\n"
            + "lat_sum -3.5\n"
            + "# EOF\n";
    Ingest in = ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j"));
    byte[] b = page.getBytes(StandardCharsets.UTF_8);
    Appender app = storage.appender();
    Ingest.Result r =
        in.append(app, b, b.length, "application/openmetrics-text; version=1.0.0", 1000);
    assertThat(r.error()).isNull();
    app.commit();
    assertThat(storage.metric("lat_sum"))
        .extracting(RecordingStorage.Sample::v)
        .containsExactly(-3.5);
  }

  @Test
  void outOfOrderSamplesAreCountedNotFatal() {
    Ingest in = ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j"));
    run(in, "a 1 5000\n", 1000);
    Ingest.Result r = run(in, "a 2 4000\nb 3\n", 2000);
    assertThat(r.error()).isNull();
    assertThat(r.outOfOrder()).isEqualTo(1);
    assertThat(storage.metric("b")).hasSize(1);
  }

  @Test
  void samplesTooFarInTheFutureAreCountedAndTheRestOfThePageIsStored() {
    Ingest in = ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j"));
    storage.refuseAfter(10_000);
    Ingest.Result r = run(in, "a 1\nahead 2 2592000000\nb 3\n", 2000);
    assertThat(r.error()).as("the page does not fail").isNull();
    assertThat(r.outOfBounds()).isEqualTo(1);
    assertThat(r.tooFarInFuture()).isEqualTo(1);
    assertThat(r.firstOutOfBounds()).contains("ahead").contains("2592000000");
    assertThat(storage.metric("a")).hasSize(1);
    assertThat(storage.metric("b")).hasSize(1);
    assertThat(storage.metric("ahead")).isEmpty();
  }

  @Test
  void duplicateSeriesInOnePageAppendOnce() {
    Ingest in = ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j"));
    Ingest.Result r = run(in, "a 1\na 1\n", 1000);
    assertThat(r.seriesAdded()).isEqualTo(1);
    assertThat(r.total()).isEqualTo(2);
    List<RecordingStorage.Sample> a = storage.metric("a");
    assertThat(a).isNotEmpty();
  }

  /** A scrape as the loop does it: a failed page is rolled back and recorded as an empty one. */
  private void scrape(Ingest in, String page, long t) {
    if (page == null || run(in, page, t).error() != null) {
      Appender app = storage.appender();
      in.append(app, new byte[0], 0, null, t);
      app.commit();
    }
  }

  /** Pages scraped one after another (null: a failed fetch) and the series marked stale at each. */
  record StaleCase(String name, List<String> pages, List<List<String>> markedAt) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<StaleCase> staleCases() {
    return Stream.of(
        new StaleCase(
            "a series vanishes, once",
            List.of("a 1\nb 1\nc 1\n", "a 2\nb 2\n", "a 3\nb 3\n"),
            List.of(List.of(), List.of("c"), List.of())),
        new StaleCase(
            "a page fails half-way: everything of the last good page, once",
            List.of("a 1\nb 1\nc 1\n", "a 2\nb 2\n{garbage\n", "a 3\n", "a 4\nb 4\n", "a 5\n"),
            List.of(List.of(), List.of("a", "b", "c"), List.of(), List.of(), List.of("b"))),
        new StaleCase(
            "failed fetches in a row mark once",
            Arrays.asList("a 1\nb 1\n", null, null, "a 2\n", null),
            List.of(List.of(), List.of("a", "b"), List.of(), List.of(), List.of("a"))),
        new StaleCase(
            "a series that comes back is not stale",
            List.of("a 1\nb 1\n", "a 2\n", "a 3\nb 3\n", "a 4\nb 4\n"),
            List.of(List.of(), List.of("b"), List.of(), List.of())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("staleCases")
  void staleMarkersFollowPrometheus(StaleCase c) {
    Ingest in = ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j"));
    for (int i = 0; i < c.pages().size(); i++) {
      long t = 1000L * (i + 1);
      scrape(in, c.pages().get(i), t);
      List<String> marked =
          storage.samples().stream()
              .filter(x -> x.t() == t && x.stale())
              .map(x -> x.labels().metricName())
              .sorted()
              .collect(Collectors.toList());
      assertThat(marked).as("markers after page %d", i).isEqualTo(c.markedAt().get(i));
    }
  }

  private static final String A = "# HELP a_total A.\n# TYPE a_total counter\na_total 1\n";
  private static final String B = "# HELP b B.\n# TYPE b gauge\nb 1\n";
  private static final String C = "# HELP c C.\n# TYPE c gauge\nc 1\n";

  /** Pages scraped in turn and the metadata updates each one sends to storage. */
  record MetadataCase(String name, List<String> pages, List<List<String>> updatesAt) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<MetadataCase> metadataCases() {
    String aNewHelp = A.replace("A.", "A, reworded.");
    return Stream.of(
        new MetadataCase(
            "the same page again sends nothing",
            List.of(A + B, A + B, A + B),
            List.of(List.of("a_total COUNTER A.", "b GAUGE B."), List.of(), List.of())),
        new MetadataCase(
            "a changed help text is sent once",
            List.of(A + B, aNewHelp + B, aNewHelp + B),
            List.of(
                List.of("a_total COUNTER A.", "b GAUGE B."),
                List.of("a_total COUNTER A, reworded."),
                List.of())),
        new MetadataCase(
            "reordered families are not changes",
            List.of(A + B + C, C + A + B, C + A + B),
            List.of(
                List.of("a_total COUNTER A.", "b GAUGE B.", "c GAUGE C."), List.of(), List.of())),
        new MetadataCase(
            "a family inserted in front: only it is sent",
            List.of(A + B, C + A + B),
            List.of(List.of("a_total COUNTER A.", "b GAUGE B."), List.of("c GAUGE C."))),
        new MetadataCase(
            "a family that comes back with its old text is not sent again",
            List.of(A + B, B, A + B),
            List.of(List.of("a_total COUNTER A.", "b GAUGE B."), List.of(), List.of())),
        new MetadataCase(
            "a type changed back and forth is sent each time",
            List.of(B, B.replace("gauge", "counter"), B),
            List.of(List.of("b GAUGE B."), List.of("b COUNTER B."), List.of("b GAUGE B."))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("metadataCases")
  void metadataIsSentWhenItChanges(MetadataCase c) {
    Ingest in = ingest(Configs.one("- job_name: j\n"), Labels.of("job", "j"));
    int seen = 0;
    for (int i = 0; i < c.pages().size(); i++) {
      assertThat(run(in, c.pages().get(i), 1000L * (i + 1)).error()).isNull();
      List<String> all = storage.metadataUpdates();
      assertThat(all.subList(seen, all.size()))
          .as("updates after page %d", i)
          .isEqualTo(c.updatesAt().get(i));
      seen = all.size();
    }
  }

  @Test
  void theCacheForgetsSeriesAGoodPageLacksAndKeepsTheRest() {
    ScrapeCache cache = new ScrapeCache();
    Ingest in =
        new Ingest(PoolSettings.of(Configs.one("- job_name: j\n")), Labels.of("job", "j"), cache);
    run(in, "a 1\nb 1\nc 1\n", 1000);
    assertThat(cache.size()).isEqualTo(3);
    run(in, "a 2\nb 2\nc 2\n", 2000); // all seen: nothing to drop
    assertThat(cache.size()).isEqualTo(3);
    run(in, "a 3\nc 3\n", 3000);
    assertThat(cache.size()).isEqualTo(2);
    run(in, "a 4\na 4\nc 4\n", 4000); // a repeat is not a second series
    assertThat(cache.size()).isEqualTo(2);
    run(in, "c 5\nd 5\n", 5000); // one new, one gone: the count alone would not tell
    assertThat(cache.size()).isEqualTo(2);
    run(in, "a 6\nd 6\n", 6000);
    assertThat(cache.size()).isEqualTo(2);
  }
}
