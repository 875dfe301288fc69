package dev.infermon.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Evaluation slots, alert sending and API snapshots of a rule group. */
class RuleGroupTest {
  static final long MIN = 60_000;

  @Test
  void xxhash64MatchesTheReferenceVectors() {
    assertThat(XxHash64.hash(new byte[0])).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(XxHash64.hash("a".getBytes(StandardCharsets.UTF_8))).isEqualTo(0xD24EC4F1A98C6E5BL);
    assertThat(XxHash64.hash("abc".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(0x44BC2CF5AD770999L);
    assertThat(
            XxHash64.hash(
                "Nobody inspects the spammish repetition".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(0xFBCEA83C8A378BF1L);
  }

  static RuleGroup group(String yaml, RuleManagerOptions opts) {
    return RuleManager.groups(List.of(RuleFileParser.parse("f.yml", yaml)), opts, false).get(0);
  }

  static RuleManagerOptions opts(MemoryStorage s, AlertNotifier n) {
    return RuleManagerOptions.defaults(
        new EngineQueryFunction(new Engine(EngineOptions.DEFAULTS), s), s, s, n);
  }

  @Property(tries = 50)
  void evalSlotsAreStableAndInThePast(
      @ForAll @LongRange(min = 0, max = 4_000_000_000L) long nowSec) {
    RuleGroup g =
        group(
            "groups:\n  - name: g\n    interval: 1m\n    rules: []\n",
            opts(new MemoryStorage(), AlertNotifier.NONE));
    long now = nowSec * 1_000_000_000L;
    long slot = g.evalTimestampNanos(now);
    assertThat(slot).isLessThanOrEqualTo(now).isGreaterThan(now - 60_000_000_000L);
    assertThat(g.evalTimestampNanos(slot)).isEqualTo(slot);
    assertThat(g.evalTimestampNanos(now + 60_000_000_000L)).isEqualTo(slot + 60_000_000_000L);
  }

  @Test
  void firingAlertsAreSentWithValidUntilAndResolvedOnesForFifteenMinutes() {
    MemoryStorage s = new MemoryStorage();
    Appender app = s.appender();
    for (long m = 0; m <= 40; m++) {
      app.append(0, Labels.of("__name__", "up", "job", "api"), m * MIN, m < 10 ? 0 : 1);
    }
    app.commit();
    List<Notification> sent = new CopyOnWriteArrayList<>();
    List<Long> sendTimes = new ArrayList<>();
    long[] now = {0};
    RuleGroup g =
        group(
            "groups:\n  - name: g\n    interval: 30s\n    rules:\n      - alert: Down\n"
                + "        expr: up == 0\n        for: 2m\n",
            opts(
                    s,
                    alerts -> {
                      sent.addAll(alerts);
                      for (int i = 0; i < alerts.size(); i++) {
                        sendTimes.add(now[0]);
                      }
                    })
                .withExternal(Labels.EMPTY, "http://infermon:9090/"));
    for (long t = 0; t <= 40 * MIN; t += 30_000) {
      now[0] = t;
      g.eval(t);
    }
    // Fires at 2m; re-sent when more than the 1m resend delay has passed (every 1m30s at a 30s
    // interval); resolved at 10m and re-sent until 15m after resolution.
    assertThat(sendTimes.get(0)).isEqualTo(2 * MIN);
    Notification first = sent.get(0);
    assertThat(first.startsAtMs()).isEqualTo(2 * MIN);
    assertThat(first.endsAtMs()).isEqualTo(2 * MIN + 4 * MIN);
    assertThat(first.generatorUrl())
        .isEqualTo("http://infermon:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=1");
    assertThat(sendTimes).contains(2 * MIN + 90_000, 5 * MIN, 10 * MIN);
    Notification resolved = sent.get(sendTimes.indexOf(10 * MIN));
    assertThat(resolved.endsAtMs()).isEqualTo(10 * MIN);
    assertThat(sendTimes.get(sendTimes.size() - 1)).isLessThanOrEqualTo(25 * MIN);
    assertThat(sendTimes.get(sendTimes.size() - 1)).isGreaterThan(23 * MIN);
  }

  @Test
  void statusShowsRulesHealthAndAlerts() {
    MemoryStorage s = new MemoryStorage();
    Appender app = s.appender();
    app.append(0, Labels.of("__name__", "up", "job", "api"), 0, 0);
    app.commit();
    RuleGroup g =
        group(
            "groups:\n  - name: g\n    rules:\n      - record: r\n        expr: sum(up)\n"
                + "      - alert: Down\n        expr: up == 0\n        for: 5m\n"
                + "        annotations: {s: '{{ $value }}'}\n"
                + "      - record: bad\n        expr: up + on() up\n",
            opts(s, AlertNotifier.NONE));
    RuleGroupStatus before = g.status();
    assertThat(before.rules())
        .extracting(RuleStatus::health)
        .containsExactly("unknown", "unknown", "unknown");
    assertThat(before.rules().get(1).state()).isEqualTo("unknown");
    g.eval(MIN);
    RuleGroupStatus st = g.status();
    assertThat(st.intervalMs()).isEqualTo(MIN);
    assertThat(st.rules())
        .extracting(RuleStatus::type)
        .containsExactly("recording", "alerting", "recording");
    assertThat(st.rules()).extracting(RuleStatus::health).containsExactly("ok", "ok", "ok");
    RuleStatus alert = st.rules().get(1);
    assertThat(alert.query()).isEqualTo("up == 0");
    assertThat(alert.state()).isEqualTo("pending");
    assertThat(alert.durationMs()).isEqualTo(5 * MIN);
    assertThat(alert.alerts()).hasSize(1);
    assertThat(alert.alerts().get(0).annotations()).isEqualTo(Labels.of("s", "0"));
    assertThat(alert.alerts().get(0).activeAt()).isEqualTo(MIN);
  }

  @Test
  void aFailingRuleReportsItsErrorAndTheOthersRun() {
    MemoryStorage s = new MemoryStorage();
    Appender app = s.appender();
    app.append(0, Labels.of("__name__", "x", "a", "1"), 0, 1);
    app.append(0, Labels.of("__name__", "x", "a", "2"), 0, 1);
    app.commit();
    RuleGroup g =
        group(
            "groups:\n  - name: g\n    limit: 1\n    rules:\n      - record: many\n        expr: x\n"
                + "      - record: one\n        expr: sum(x)\n",
            opts(s, AlertNotifier.NONE));
    g.eval(0);
    assertThat(g.lastErrors())
        .containsExactly(java.util.Map.entry("many", "exceeded limit of 1 with 2 series"));
    assertThat(g.status().rules().get(1).health()).isEqualTo("ok");
  }
}
