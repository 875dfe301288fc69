package dev.infermon.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code for} state survives a restart through {@code ALERTS_FOR_STATE} (Prometheus's {@code
 * RestoreForState}): the storage outlives the rule group; a new group evaluates twice, restores,
 * and fires when the remaining {@code for} time (shifted by the downtime, at least the grace
 * period) has passed. Each row: when the old process died, when the new one starts, when the alert
 * fires.
 */
class RestoreForStateTest {
  static final long MIN = 60_000;

  record Case(String why, long downAtMin, long restartMin, long firesAtMin) {
    @Override
    public String toString() {
      return why;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        // Pending 20m of 30m, down 10m: activeAt moves by the downtime (11m): fires at 41m.
        new Case("remaining for time is kept, shifted by the downtime", 20, 30, 41),
        // Pending 25m of 30m: 5m remain, less than the 10m grace period: fires 10m after restore.
        new Case("a short remainder waits for the grace period", 25, 30, 41),
        // Down longer than the outage tolerance (1h): nothing to restore, `for` starts over.
        new Case("an outage beyond the tolerance starts over", 20, 90, 120),
        // Already firing when it died: fires again at the first evaluation after restore.
        new Case("a firing alert fires again right after restore", 40, 45, 47));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void restoresForState(Case c) {
    MemoryStorage storage = new MemoryStorage();
    Appender app = storage.appender();
    for (long m = 0; m <= 200; m++) {
      app.append(0, Labels.of("__name__", "up", "job", "api"), m * MIN, 0);
    }
    app.commit();
    RuleFile file =
        RuleFileParser.parse(
            "r.yml",
            "groups:\n  - name: g\n    rules:\n      - alert: Down\n        expr: up == 0\n"
                + "        for: 30m\n");
    RuleManagerOptions opts =
        RuleManagerOptions.defaults(
            new EngineQueryFunction(new Engine(EngineOptions.DEFAULTS), storage),
            storage,
            storage,
            AlertNotifier.NONE);

    RuleGroup before = RuleManager.groups(List.of(file), opts, false).get(0);
    for (long m = 0; m <= c.downAtMin(); m++) {
      before.eval(m * MIN);
    }

    RuleGroup after = RuleManager.groups(List.of(file), opts, true).get(0);
    long restart = c.restartMin();
    after.eval(restart * MIN);
    after.eval((restart + 1) * MIN);
    after.restoreForState((restart + 1) * MIN);
    long firedAt = -1;
    for (long m = restart + 2; m <= 200 && firedAt < 0; m++) {
      after.eval(m * MIN);
      if (!after.firingAlerts("Down").isEmpty()) {
        firedAt = m;
      }
    }
    assertThat(firedAt).isEqualTo(c.firesAtMin());
  }
}
