package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.promql.QueryException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which alerts get a cause and which finding they name, over one diagnosis of namespace {@code a}:
 * model {@code m} has kv-pressure on pod {@code p1} (TTFT, queue), saturated on {@code p2} (TTFT)
 * and an unexplained failure share on the model; model {@code n} has errors rising on {@code q1};
 * model {@code org/m} has kv-pressure on {@code r1}.
 */
class AlertCausesTest {
  static final long T = 1_780_000_000_000L;
  static final String TTFT_EXPR =
      "histogram_quantile(0.95, sum by (namespace, model_name, le)"
          + " (rate(vllm:time_to_first_token_seconds_bucket[5m]))) > 1";

  static Finding finding(State s, String model, String pod, Symptom... symptoms) {
    Evidence e =
        new Evidence(
            "signal of " + s.id(), "q", "{pod=\"" + pod + "\"}", 0.5, T, "max over the window");
    return new Finding(
        s, model, "a", pod, s.id() + " summary", List.of(e), List.of(symptoms), List.of());
  }

  static final Diagnosis DIAGNOSIS =
      new Diagnosis(
          T - DiagnosisService.DEFAULT_WINDOW_MS,
          T,
          List.of("a/p1 (m)", "a/p2 (m)", "a/q1 (n)"),
          List.of(
              finding(
                  State.KV_PRESSURE, "m", "p1", Symptom.TTFT_HIGH, Symptom.QUEUED_WHILE_PREEMPTING),
              finding(State.SATURATED, "m", "p2", Symptom.TTFT_HIGH),
              finding(State.CAUSE_NOT_FOUND, "m", "", Symptom.FAILURES_HIGH),
              finding(State.ERRORS_RISING, "n", "q1", Symptom.FAILURES_HIGH),
              finding(State.KV_PRESSURE, "org/m", "r1", Symptom.QUEUED_WHILE_PREEMPTING)));

  static Map<String, String> labels(String spec) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String kv : spec.trim().split("\\s+")) {
      String[] p = kv.split("=", 2);
      out.put(p[0], p[1]);
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # alert                          | expression                     | labels                    | the cause (- for none)
          LLMTimeToFirstTokenHigh          | TTFT                           | namespace=a model_name=m  | saturated on p2: saturated summary; also kv-pressure (1 pod)
          LLMRequestsQueuedWhilePreempting | vllm:num_requests_waiting > 50 | namespace=a model_name=m  | kv-pressure on p1: kv-pressure summary
          LLMRequestFailuresHigh           | vllm:request_success_total > 0 | namespace=a model_name=m  | cause-not-found on the model: cause-not-found summary
          LLMRequestFailuresHigh           | vllm:request_success_total > 0 | namespace=a model_name=n  | errors-rising on q1: errors-rising summary
          LLMTimeToFirstTokenHigh          | TTFT                           | namespace=a model_name=z  | diagnosis sees no ttft-high on a/z over the last 30m
          QueueOnAPod                      | vllm:num_requests_waiting > 5  | namespace=a pod=p1        | kv-pressure on p1: kv-pressure summary; also cause-not-found (model)
          QueueOnAPodOfAModel              | vllm:num_requests_waiting > 5  | model_name=m pod=p2       | saturated on p2: saturated summary; also cause-not-found (model)
          Down                             | up == 0                        | namespace=a model_name=m  | -
          NoModelNoPod                     | vllm:num_requests_waiting > 5  | namespace=a               | -
          NotPromql                        | vllm:num_requests_waiting >    | namespace=a model_name=m  | -
          """)
  void causeOfAnAlert(String alert, String expr, String labels, String cause) {
    AlertCauses causes = new AlertCauses(Catalog.builtIn(), end -> DIAGNOSIS);
    Optional<AlertCause> got =
        causes.causeOf(
            alert, "TTFT".equals(expr) ? TTFT_EXPR : expr, labels(labels), T - 600_000, T);
    assertThat(got.map(AlertCause::cause).orElse(null)).isEqualTo(cause);
  }

  @Test
  void annotationsNameTheEvidenceAndTheDashboard() {
    AlertCause c =
        new AlertCauses(Catalog.builtIn(), end -> DIAGNOSIS)
            .causeOf(
                AlertPack.QUEUED,
                "vllm:num_requests_waiting > 50",
                labels("namespace=a model_name=org/m"),
                T - 3_600_000,
                T)
            .orElseThrow();
    assertThat(c.state()).isEqualTo("kv-pressure");
    assertThat(c.annotations("http://infermon:9090"))
        .containsExactly(
            Map.entry("cause", "kv-pressure on r1: kv-pressure summary"),
            Map.entry(
                "cause_evidence",
                "signal of kv-pressure {pod=\"r1\"} = 0.5 at 2026-05-28T20:26:40Z (max over the window)"),
            // from the alert's start (earlier than the diagnosis window) to the evaluation
            Map.entry(
                "dashboard_url",
                "http://infermon:9090/dashboard?namespace=a&model=org%2Fm&from="
                    + (T - 3_600_000)
                    + "&to="
                    + T),
            // the alert's labels as a selector: Name{model_name="org/m", namespace="a"}
            Map.entry(
                "incident_url",
                "http://infermon:9090/incident?alert=LLMRequestsQueuedWhilePreempting"
                    + "%7Bmodel_name%3D%22org%2Fm%22%2C%20namespace%3D%22a%22%7D"));
  }

  /**
   * An alert with a pod label links the dashboard's pod level of its model (the dashboard has no
   * pod filter); an alert younger than the diagnosis window links the window, 30 minutes to the
   * evaluation, not the few minutes since it started.
   */
  @Test
  void aPodsAlertLinksThePodLevelAndAYoungAlertTheWholeWindow() {
    AlertCause c =
        new AlertCauses(Catalog.builtIn(), end -> DIAGNOSIS)
            .causeOf(
                "QueueOnAPodOfAModel",
                "vllm:num_requests_waiting > 5",
                labels("namespace=a model_name=m pod=p2"),
                T - 120_000,
                T)
            .orElseThrow();
    assertThat(c.cause()).startsWith("saturated on p2: ");
    assertThat(c.annotations("http://infermon:9090"))
        .containsEntry(
            "dashboard_url",
            "http://infermon:9090/dashboard?namespace=a&model=m&level=pod&from="
                + (T - DiagnosisService.DEFAULT_WINDOW_MS)
                + "&to="
                + T);
  }

  @Test
  void alertsOfOneEvaluationShareOneDiagnosis() {
    AtomicInteger diagnoses = new AtomicInteger();
    AlertCauses causes =
        new AlertCauses(
            Catalog.builtIn(),
            end -> {
              diagnoses.incrementAndGet();
              return DIAGNOSIS;
            });
    for (long t : new long[] {T, T, T + 60_000, T + 60_000, T}) {
      for (String model : List.of("m", "n")) {
        causes.causeOf(AlertPack.TTFT, TTFT_EXPR, labels("namespace=a model_name=" + model), T, t);
      }
    }
    assertThat(diagnoses.get()).isEqualTo(2);
  }

  /**
   * A diagnosis runs outside the cache's lock: while the one at {@code T} is running, an alert at
   * another evaluation time gets its cause from its own, and a second alert at {@code T} waits for
   * the running one rather than start another.
   */
  @Test
  void aRunningDiagnosisHoldsUpOnlyItsOwnEvaluationTime() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
    AlertCauses causes =
        new AlertCauses(
            Catalog.builtIn(),
            end -> {
              runs.computeIfAbsent(end, e -> new AtomicInteger()).incrementAndGet();
              if (end == T) {
                running.countDown();
                await(release);
              }
              return DIAGNOSIS;
            });
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Callable<Optional<AlertCause>> atT =
          () -> causes.causeOf(AlertPack.TTFT, TTFT_EXPR, labels("namespace=a model_name=m"), T, T);
      Future<Optional<AlertCause>> first = pool.submit(atT);
      assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
      Future<Optional<AlertCause>> second = pool.submit(atT);
      // times out when the diagnosis at T holds the lock others need
      Optional<AlertCause> later =
          pool.submit(
                  () ->
                      causes.causeOf(
                          AlertPack.QUEUED,
                          "vllm:num_requests_waiting > 50",
                          labels("namespace=a model_name=m"),
                          T,
                          T + 60_000))
              .get(30, TimeUnit.SECONDS);
      assertThat(later.map(AlertCause::state)).contains("kv-pressure");
      assertThat(first.isDone() || second.isDone()).isFalse();
      release.countDown();
      assertThat(first.get(30, TimeUnit.SECONDS).map(AlertCause::state)).contains("saturated");
      assertThat(second.get(30, TimeUnit.SECONDS).map(AlertCause::state)).contains("saturated");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    assertThat(runs).containsOnlyKeys(T, T + 60_000);
    assertThat(runs.get(T).get()).as("diagnoses at T").isEqualTo(1);
    assertThat(runs.get(T + 60_000).get()).isEqualTo(1);
  }

  @Test
  void aFailedDiagnosisIsNotKeptSoTheNextEvaluationTriesAgain() {
    AtomicInteger calls = new AtomicInteger();
    AlertCauses causes =
        new AlertCauses(
            Catalog.builtIn(),
            end -> {
              if (calls.incrementAndGet() == 1) {
                throw new QueryException("query timed out");
              }
              return DIAGNOSIS;
            });
    Map<String, String> l = labels("namespace=a model_name=n");
    assertThatThrownBy(
            () -> causes.causeOf(AlertPack.FAILURES, "vllm:request_success_total > 0", l, T, T))
        .isInstanceOf(QueryException.class)
        .hasMessage("query timed out");
    assertThat(
            causes
                .causeOf(AlertPack.FAILURES, "vllm:request_success_total > 0", l, T, T)
                .map(AlertCause::state))
        .contains("errors-rising");
    assertThat(calls.get()).isEqualTo(2);
  }

  private static void await(CountDownLatch l) {
    try {
      l.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void thePacksAlertNamesAreTheExportsOwn() {
    assertThat(AlertCauses.PACK)
        .containsOnlyKeys(AlertPack.TTFT, AlertPack.QUEUED, AlertPack.FAILURES)
        .containsEntry(AlertPack.TTFT, Symptom.TTFT_HIGH)
        .containsEntry(AlertPack.QUEUED, Symptom.QUEUED_WHILE_PREEMPTING)
        .containsEntry(AlertPack.FAILURES, Symptom.FAILURES_HIGH);
  }
}
