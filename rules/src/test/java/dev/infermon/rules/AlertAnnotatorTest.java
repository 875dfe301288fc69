package dev.infermon.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a group does with its {@link AlertAnnotator}: the alert {@code Slow} ({@code latency > 1},
 * {@code for: 1m}, its own {@code summary}) is active from 0m to 5m (pending at 0m, firing from 1m)
 * and resolves at 6m; a recording rule follows it in the group. Each row is an annotator and what
 * the alert then carries: while pending (0m), while firing (2m, and the notification sent then),
 * once resolved (the notification at 6m), how many calls were made, and that the rule after it ran.
 */
class AlertAnnotatorTest {
  static final long MIN = 60_000;

  private static final String RULES =
      """
      groups:
        - name: g
          interval: 1m
          rules:
            - alert: Slow
              expr: latency > 1
              for: 1m
              annotations: {summary: slow}
            - record: after
              expr: vector(1)
      """;

  static AlertAnnotator annotator(String kind, AtomicInteger calls) {
    return switch (kind) {
      case "none" -> AlertAnnotator.NONE;
      // what the cause says changes with every evaluation, as a diagnosis may
      case "by-time" ->
          a -> {
            calls.incrementAndGet();
            return Map.of(
                "cause",
                a.state().label() + " at " + a.evalTimeMs() / MIN + "m",
                "summary",
                "the annotator's summary loses to the rule's");
          };
      case "throws" ->
          a -> {
            calls.incrementAndGet();
            throw new IllegalStateException("diagnosis broke");
          };
      case "null" ->
          a -> {
            calls.incrementAndGet();
            return null;
          };
      case "hangs" ->
          a -> {
            calls.incrementAndGet();
            try {
              Thread.sleep(Duration.ofHours(1).toMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return Map.of("cause", "too late");
          };
      default -> throw new IllegalArgumentException(kind);
    };
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # annotator | at 0m (pending)                 | at 2m (firing)                   | resolved, as sent at 6m         | calls
          none        | {summary=slow}                  | {summary=slow}                   | {summary=slow}                  | 0
          by-time     | {cause=pending at 0m, summary=slow} | {cause=firing at 2m, summary=slow} | {cause=firing at 5m, summary=slow} | 6
          throws      | {summary=slow}                  | {summary=slow}                   | {summary=slow}                  | 6
          null        | {summary=slow}                  | {summary=slow}                   | {summary=slow}                  | 6
          hangs       | {summary=slow}                  | {summary=slow}                   | {summary=slow}                  | 6
          """)
  void annotationsFollowTheAnnotatorAndNeverStopTheGroup(
      String kind, String pending, String firing, String resolved, int calls) {
    MemoryStorage s = new MemoryStorage();
    Appender app = s.appender();
    for (long m = 0; m <= 8; m++) {
      app.append(0, Labels.of("__name__", "latency", "model_name", "m"), m * MIN, m <= 5 ? 2 : 0);
    }
    app.commit();
    List<Notification> sent = new CopyOnWriteArrayList<>();
    AtomicInteger called = new AtomicInteger();
    RuleGroup g =
        RuleGroupTest.group(
            RULES,
            RuleGroupTest.opts(s, sent::addAll)
                .withAnnotator(annotator(kind, called), Duration.ofMillis(200)));
    long started = System.nanoTime();
    String atPending = null;
    String atFiring = null;
    for (long m = 0; m <= 8; m++) {
      g.eval(m * MIN);
      assertThat(g.lastErrors()).as("errors at %sm", m).isEmpty();
      List<AlertSnapshot> alerts = g.status().rules().get(0).alerts();
      if (m == 0) {
        atPending = alerts.get(0).annotations().toMap().toString();
      } else if (m == 2) {
        atFiring = alerts.get(0).annotations().toMap().toString();
      }
    }
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;

    assertThat(atPending).isEqualTo(pending);
    assertThat(atFiring).isEqualTo(firing);
    Notification firstSent = sent.get(0);
    assertThat(firstSent.startsAtMs()).isEqualTo(MIN);
    assertThat(sent.get(sent.size() - 1).endsAtMs()).as("resolved").isEqualTo(6 * MIN);
    assertThat(sent).last().extracting(n -> n.annotations().toMap().toString()).isEqualTo(resolved);
    assertThat(called.get()).as("calls").isEqualTo(calls);
    // the rule after the alert ran at every evaluation, whatever the annotator did
    assertThat(g.status().rules().get(1).health()).isEqualTo("ok");
    // a hanging annotator costs each evaluation its 200 ms budget, not more
    assertThat(elapsedMs).isLessThan(9 * 200 + 3_000);
  }
}
