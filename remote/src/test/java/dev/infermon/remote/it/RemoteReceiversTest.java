package dev.infermon.remote.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.remote.write.QueueManager;
import dev.infermon.rules.rulefmt.GroupSpec;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.rules.rulefmt.RuleSpec;
import dev.infermon.storage.Fanout;
import dev.infermon.tsdb.Tsdb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * infermon remote-writes one fleet slice into its embedded TSDB and, through the fanout, into the
 * real Prometheus 2.42 and VictoriaMetrics 1.79 started here; then the same queries through the
 * {@code QueryBackend} seam give the same values on all of them. Skips a receiver whose binary is
 * not installed (and the class when neither is).
 *
 * <p>Dialects: PromQL's {@code rate}/{@code increase} extrapolate and {@code histogram_quantile}
 * follows; MetricsQL (VictoriaMetrics) computes those differently by design, so they are compared
 * exactly against Prometheus only, and against VictoriaMetrics by which alerts fire. Evaluation
 * times sit 7 s off the 15 s sample grid so that Prometheus 2.42's closed range windows and
 * infermon's left-open ones (Prometheus 3) select the same samples.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemoteReceiversTest {
  private static final int STEPS = 120; // 30 minutes of 15 s scrapes

  @TempDir static Path tmp;
  private final List<Receiver> receivers = new ArrayList<>();
  private final List<QueueManager> queues = new ArrayList<>();
  private Tsdb tsdb;
  private QueryBackend embedded;
  private long start;
  private long end;
  private long written;

  @BeforeAll
  void writeTheFleet() throws Exception {
    for (Receiver.Kind k : Receiver.Kind.values()) {
      if (k.installed()) {
        Path dir = Files.createDirectories(tmp.resolve(k.name()));
        receivers.add(Receiver.start(k, dir));
      }
    }
    Assumptions.assumeFalse(
        receivers.isEmpty(), "neither /usr/bin/prometheus nor /usr/bin/victoria-metrics installed");
    for (Receiver r : receivers) {
      queues.add(
          QueueManager.start(
              dev.infermon.remote.write.TestEndpoints.endpoint(
                  r.writeUrl(),
                  "    queue_config:\n      batch_send_deadline: 100ms\n      max_backoff: 1s\n"),
              Labels.EMPTY,
              "infermon/test"));
    }
    tsdb = Tsdb.open(tmp.resolve("infermon"));
    embedded = new EmbeddedQueryBackend(tsdb, new Engine(EngineOptions.DEFAULTS));
    // Recent data: Prometheus's head only takes samples within an hour of its newest.
    long now = System.currentTimeMillis();
    start = (now - TimeUnit.MINUTES.toMillis(35)) / 60_000 * 60_000;
    end = start + (STEPS - 1) * FleetSamples.STEP_MS;
    written = FleetSamples.write(Fanout.of(tsdb, queues), start, STEPS);

    for (QueueManager q : queues) {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (q.stats().sentSamples() < written && System.nanoTime() < until) {
        Thread.sleep(50);
      }
      assertThat(q.stats().sentSamples()).as(q.name() + " " + q.stats()).isEqualTo(written);
    }
    for (Receiver r : receivers) {
      r.flush();
    }
  }

  @AfterAll
  void stopAll() throws Exception {
    for (QueueManager q : queues) {
      q.close(Duration.ZERO);
    }
    for (Receiver r : receivers) {
      r.close();
    }
    if (tsdb != null) {
      tsdb.close();
    }
  }

  private QueryBackend remote(Receiver r) {
    return new RemoteQueryBackend(
        r.base(), Duration.ofSeconds(30), HttpClientConfig.DEFAULT, "infermon/test");
  }

  private Receiver receiver(Receiver.Kind k) {
    for (Receiver r : receivers) {
      if (r.kind() == k) {
        return r;
      }
    }
    Assumptions.abort(k + " is not installed");
    throw new AssertionError("unreachable");
  }

  /** Queries whose meaning PromQL and MetricsQL share. */
  static Stream<String> portableQueries() {
    return Stream.of(
        "vllm:num_requests_running",
        "sum by (model_name) (vllm:num_requests_waiting)",
        "max(vllm:kv_cache_usage_perc)",
        "count(up)",
        "sum(vllm:request_success_total)",
        "avg_over_time(vllm:kv_cache_usage_perc[2m])",
        "max_over_time(vllm:num_requests_waiting[5m])");
  }

  /** Dashboard queries in PromQL's own semantics (extrapolated rates, quantiles from them). */
  static Stream<String> promqlQueries() {
    return Stream.of(
        "sum by (model_name) (rate(vllm:request_success_total[5m]))",
        "histogram_quantile(0.9, sum by (model_name, le)"
            + " (rate(vllm:time_to_first_token_seconds_bucket[5m])))",
        "increase(vllm:num_preemptions_total[10m])");
  }

  static Stream<Arguments> portableOnEveryReceiver() {
    return portableQueries()
        .flatMap(q -> Stream.of(Receiver.Kind.values()).map(k -> Arguments.of(k, q)));
  }

  static Stream<Arguments> everyQueryOnPrometheus() {
    return Stream.concat(portableQueries(), promqlQueries())
        .map(q -> Arguments.of(Receiver.Kind.PROMETHEUS, q));
  }

  @Test
  void everyReceiverHoldsEverySample() {
    for (Receiver r : receivers) {
      long stored = 0;
      // Per metric name: PromQL's count_over_time drops the name, so one query over all names
      // would collide on the remaining labels.
      for (String name : embedded.labelValues("__name__", List.of(), start, end)) {
        Vector v =
            (Vector)
                remote(r)
                    .instantQuery("sum(count_over_time(" + name + "[40m]))", end + 7_000)
                    .value();
        stored += (long) v.samples().get(0).value();
      }
      assertThat(stored).as(r.kind().toString()).isEqualTo(written);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource({"portableOnEveryReceiver", "everyQueryOnPrometheus"})
  void instantQueriesAgree(Receiver.Kind kind, String query) {
    QueryBackend remote = remote(receiver(kind));
    for (long t = start + 5 * 60_000 + 7_000; t <= end; t += 4 * 60_000) {
      compare(
          kind,
          query + " @" + t,
          embedded.instantQuery(query, t).value(),
          remote.instantQuery(query, t).value());
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource({"portableOnEveryReceiver", "everyQueryOnPrometheus"})
  void rangeQueriesAgree(Receiver.Kind kind, String query) {
    QueryBackend remote = remote(receiver(kind));
    // VictoriaMetrics aligns range queries to the step, so it gets aligned times (its windows
    // are left-open like infermon's); Prometheus 2.42 gets times off the sample grid.
    long step = 60_000;
    long offset = kind == Receiver.Kind.PROMETHEUS ? 7_000 : 0;
    long from = (start + 10 * 60_000) / step * step + offset;
    long to = end / step * step + offset - step;
    compare(
        kind,
        query,
        embedded.rangeQuery(query, from, to, step).value(),
        remote.rangeQuery(query, from, to, step).value());
  }

  private static void compare(Receiver.Kind kind, String what, Value expected, Value actual) {
    if (kind == Receiver.Kind.VICTORIA_METRICS) {
      ResultComparison.assertSameIgnoringName(kind + " " + what, expected, actual);
    } else {
      ResultComparison.assertSame(kind + " " + what, expected, actual);
    }
  }

  @Test
  void seriesLabelsAndValuesAgree() {
    for (Receiver r : receivers) {
      QueryBackend remote = remote(r);
      List<String> sel = List.of("vllm:num_requests_waiting", "{__name__=\"up\", pod=\"vllm-03\"}");
      assertThat(remote.series(sel, start, end))
          .as(r.kind().toString())
          .isEqualTo(embedded.series(sel, start, end));
      assertThat(remote.labelValues("pod", List.of("up"), start, end))
          .as(r.kind().toString())
          .isEqualTo(embedded.labelValues("pod", List.of("up"), start, end));
      assertThat(remote.labelNames(List.of("up"), start, end))
          .as(r.kind().toString())
          .isEqualTo(embedded.labelNames(List.of("up"), start, end));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void theDefaultAlertsFireForTheSameModels(Receiver.Kind kind) throws Exception {
    QueryBackend remote = remote(receiver(kind));
    // the pack serve loads for a vLLM fleet, as it generates it
    RuleFile rules =
        RuleFileParser.parse(
            "infermon-llm.yml",
            AlertPack.ruleFile(Catalog.builtIn(), Set.of("vllm"), LlmConfig.Alerts.DEFAULT));
    long t = end - 7_000;
    TreeSet<String> firingEmbedded = new TreeSet<>();
    TreeSet<String> firingRemote = new TreeSet<>();
    for (GroupSpec g : rules.groups()) {
      for (RuleSpec rule : g.rules()) {
        if (!rule.alert()) {
          continue;
        }
        firingEmbedded.addAll(firing(rule, embedded.instantQuery(rule.exprText(), t)));
        Vector remoteResult = (Vector) remote.instantQuery(rule.exprText(), t).value();
        firingRemote.addAll(firing(rule, remote.instantQuery(rule.exprText(), t)));
        if (kind == Receiver.Kind.PROMETHEUS) {
          ResultComparison.assertSame(
              rule.name(), embedded.instantQuery(rule.exprText(), t).value(), remoteResult);
        }
      }
    }
    assertThat(firingEmbedded)
        .containsExactly(
            "LLMRequestsQueuedWhilePreempting{model_name=\"m1\", namespace=\"llm\"}",
            "LLMTimeToFirstTokenHigh{model_name=\"m1\", namespace=\"llm\"}");
    assertThat(firingRemote).isEqualTo(firingEmbedded);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void theDashboardRendersTheSamePanelsFromTheCluster(Receiver.Kind kind) {
    QueryBackend remote = remote(receiver(kind));
    Catalog catalog = Catalog.builtIn();
    // 7 s off the grid with a 20 s step: no evaluation time lands on a sample (see the class doc).
    DashboardRequest req = DashboardRequest.of(Filters.NONE, start + 10 * 60_000 + 7_000, end);
    List<PanelResult> local =
        new DashboardService(QueryStack.withoutCache(embedded), catalog).render(req);
    List<PanelResult> far =
        new DashboardService(QueryStack.withoutCache(remote), catalog).render(req);

    assertThat(far).hasSameSizeAs(local);
    assertThat(local).anyMatch(p -> p.status() == PanelResult.Status.OK);
    for (int i = 0; i < local.size(); i++) {
      PanelResult a = local.get(i);
      PanelResult b = far.get(i);
      assertThat(b.status()).as(a.panel().toString()).isEqualTo(a.status());
      for (int q = 0; q < a.queries().size(); q++) {
        assertThat(b.queries().get(q).promql()).isEqualTo(a.queries().get(q).promql());
        if (kind == Receiver.Kind.PROMETHEUS) {
          assertThat(dashboardPoints(b.queries().get(q).series()))
              .as(a.queries().get(q).promql())
              .isEqualTo(dashboardPoints(a.queries().get(q).series()));
        } else {
          assertThat(b.queries().get(q).series()).hasSameSizeAs(a.queries().get(q).series());
        }
      }
    }
  }

  private static Map<String, String> dashboardPoints(List<PanelResult.SeriesData> series) {
    Map<String, String> out = new java.util.TreeMap<>();
    for (PanelResult.SeriesData d : series) {
      out.put(
          new java.util.TreeMap<>(d.labels()).toString(),
          ResultComparison.points(
                  new Matrix(List.of(TimeSeries.of(Labels.EMPTY, d.timestamps(), d.values()))),
                  false)
              .toString());
    }
    return out;
  }

  static Stream<Receiver.Kind> kinds() {
    return Stream.of(Receiver.Kind.values());
  }

  private static List<String> firing(RuleSpec rule, dev.infermon.promql.value.QueryResult r) {
    List<String> out = new ArrayList<>();
    for (Sample s : ((Vector) r.value()).samples()) {
      Map<String, String> m = s.labels().withoutMetricName().toMap();
      out.add(rule.name() + Labels.fromMap(m));
    }
    return out;
  }
}
