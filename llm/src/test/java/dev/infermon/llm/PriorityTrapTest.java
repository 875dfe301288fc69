package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SGLang with {@code --enable-priority-scheduling} writes each queue gauge as the total (no
 * priority label) and once per priority, on every TP rank; with DP attention each {@code dp_rank}
 * is a real shard. The pod's value is the total, counted once per DP rank.
 */
class PriorityTrapTest {
  @ParameterizedTest(name = "tp={0} dp={1}: running {4}")
  @CsvSource({
    // tp ranks, dp ranks, total per dp rank, priorities (p0+p1 = total), expected pod value
    "1, 1, 10, '4,6', 10",
    "2, 1, 10, '4,6', 10",
    "4, 1, 7, '3,4', 7",
    "2, 2, 10, '4,6', 20",
  })
  void totalNotSumOfPrioritiesAndNotSumOfTpRanks(
      int tp, int dp, double total, String priorities, double expected) {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    long t = SimulatedFleet.START;
    String[] parts = priorities.split(",");
    for (int d = 0; d < dp; d++) {
      for (int r = 0; r < tp; r++) {
        Labels.Builder b =
            Labels.builder()
                .set("__name__", "sglang:num_running_reqs")
                .set("namespace", "n")
                .set("pod", "p")
                .set("instance", "p:30000")
                .set("model_name", "m")
                .set("engine_type", "unified")
                .set("tp_rank", Integer.toString(dp > 1 ? d : r))
                .set("pp_rank", "0")
                .set("moe_ep_rank", "0");
        if (dp > 1) {
          b.set("dp_rank", Integer.toString(d)).set("tp_rank", Integer.toString(d * tp + r));
        }
        a.append(0, b.build(), t, total);
        for (int p = 0; p < parts.length; p++) {
          a.append(
              0, b.set("priority", Integer.toString(p)).build(), t, Double.parseDouble(parts[p]));
        }
      }
    }
    a.commit();
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE, Map.of(), 0.95, "5m", Presence.of(Set.of("sglang:num_running_reqs")));
    String q =
        new PromqlCompiler(Catalog.builtIn())
            .compile(new Measure.Level(Signal.REQUESTS_RUNNING), Level.POD, o)
            .orElseThrow();
    Vector v =
        (Vector)
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS))
                .instantQuery(q, t)
                .value();
    assertThat(v.samples()).hasSize(1);
    assertThat(v.samples().get(0).value()).as(q).isEqualTo(expected);
  }
}
