package dev.infermon.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The manager schedules groups on their interval and keeps alert state across a reload. */
class RuleManagerTest {
  static final String FILE =
      "groups:\n  - name: fast\n    interval: 1s\n    rules:\n      - record: one\n"
          + "        expr: vector(1)\n      - alert: Always\n        expr: one > 0\n";

  @Test
  void runsGroupsOnTheirIntervalAndSendsAlerts() throws Exception {
    MemoryStorage s = new MemoryStorage();
    List<Notification> sent = new CopyOnWriteArrayList<>();
    RuleManagerOptions opts =
        RuleManagerOptions.defaults(
            new EngineQueryFunction(new Engine(EngineOptions.DEFAULTS), s), s, s, sent::addAll);
    try (RuleManager m = new RuleManager(opts, 1)) {
      m.update(List.of(RuleFileParser.parse("f.yml", FILE)));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (sent.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(sent).isNotEmpty();
      assertThat(sent.get(0).labels().get("alertname")).isEqualTo("Always");
      RuleGroupStatus st = m.status().get(0);
      assertThat(st.lastEvaluationMs()).isPositive();
      assertThat(st.rules().get(1).state()).isEqualTo("firing");
      long activeAt = st.rules().get(1).alerts().get(0).activeAt();

      // A reload with the same group keeps the alert (same activeAt) instead of starting over.
      m.update(List.of(RuleFileParser.parse("f.yml", FILE)));
      List<AlertSnapshot> kept = m.status().get(0).rules().get(1).alerts();
      assertThat(kept).hasSize(1);
      assertThat(kept.get(0).activeAt()).isEqualTo(activeAt);
    }
  }
}
