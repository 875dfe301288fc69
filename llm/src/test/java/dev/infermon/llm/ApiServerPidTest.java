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
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * vLLM with {@code --api-server-count 8}: gauges once per API process with a {@code pid} label. The
 * real excerpt of PR #28792 (8 {@code kv_cache_usage_perc} series, one non-zero) plus scheduler
 * gauges of a two-engine pod where a stale process repeats the live one's value: a gauge signal is
 * the max over pid, then combined over engines by its meaning (running summed, KV usage the
 * fullest, sleeping engines counted), never a sum or mean over processes.
 */
class ApiServerPidTest {
  private static final Pattern LINE =
      Pattern.compile(
          "(vllm:[a-z_]+)\\{engine=\"(\\d+)\",model_name=\"([^\"]+)\",pid=\"(\\d+)\"} (.+)");
  private static final long T = 1_780_000_000_000L;
  private static final MemoryStorage storage = new MemoryStorage();
  private static final QueryBackend backend =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
  private static final List<String> families = new ArrayList<>();

  @BeforeAll
  static void store() {
    List<String[]> samples = new ArrayList<>();
    String excerpt =
        Captures.get("vllm/vllm-pr28792_api-server-count-8_pid-label_EXCERPT.prom").text();
    for (String line : excerpt.split("\n")) {
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        samples.add(new String[] {m.group(1), m.group(2), m.group(4), m.group(5)});
      }
    }
    assertThat(samples).as("the excerpt's 8 series").hasSize(8);
    // engine 0: pid 271 live with 5 running, pid 272 a stale copy; engine 1: 3 running, pid 273
    samples.add(new String[] {"vllm:num_requests_running", "0", "271", "5"});
    samples.add(new String[] {"vllm:num_requests_running", "0", "272", "5"});
    samples.add(new String[] {"vllm:num_requests_running", "0", "274", "0"});
    samples.add(new String[] {"vllm:num_requests_running", "1", "273", "3"});
    samples.add(new String[] {"vllm:num_requests_running", "1", "275", "0"});
    samples.add(new String[] {"vllm:num_requests_waiting", "0", "271", "2"});
    samples.add(new String[] {"vllm:num_requests_waiting", "0", "272", "2"});
    samples.add(new String[] {"vllm:num_requests_waiting", "1", "273", "0"});
    // engine 0 sleeps at level 1 (weights offloaded), engine 1 is awake
    String[][] sleep = {
      {"0", "271", "0", "1", "0"}, {"0", "272", "0", "1", "0"}, {"1", "273", "1", "0", "0"}
    };
    String[] states = {"awake", "weights_offloaded", "discard_all"};
    for (String[] e : sleep) {
      for (int i = 0; i < states.length; i++) {
        samples.add(new String[] {"vllm:engine_sleep_state", e[0], e[1], e[2 + i], states[i]});
      }
    }
    Appender a = storage.appender();
    for (int step = 0; step < 10; step++) {
      for (String[] s : samples) {
        List<String> labels =
            new ArrayList<>(
                List.of(
                    "__name__",
                    s[0],
                    "engine",
                    s[1],
                    "model_name",
                    "Qwen/Qwen3-VL-8B-Instruct",
                    "pid",
                    s[2],
                    "job",
                    "inference",
                    "instance",
                    "p:8000",
                    "backend",
                    "vllm",
                    "namespace",
                    "n",
                    "pod",
                    "p"));
        if (s.length > 4) {
          labels.addAll(List.of("sleep_state", s[4]));
        }
        a.append(
            0,
            Labels.of(labels.toArray(new String[0])),
            T + step * 15_000L,
            Double.parseDouble(s[3]));
      }
    }
    a.commit();
    for (String[] s : samples) {
      families.add(s[0]);
    }
  }

  private static double now(Signal s, Level level) {
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE, java.util.Map.of(), 0.95, "5m", Presence.of(Set.copyOf(families)));
    String q =
        new PromqlCompiler(Catalog.builtIn()).compile(new Measure.Level(s), level, o).orElseThrow();
    Vector v = (Vector) backend.instantQuery(q, T + 135_000).value();
    assertThat(v.samples()).as(q).hasSize(1);
    return v.samples().get(0).value();
  }

  @ParameterizedTest(name = "{0} per {1} = {2}")
  @CsvSource({
    // signal,       level, want: max over pid, then the signal's own aggregation over engines
    "KV_USAGE,         POD,   0.6530455880475035",
    "KV_USAGE,         MODEL, 0.6530455880475035",
    "REQUESTS_RUNNING, POD,   8", // 5 + 3: the stale copy of 5 is not counted again
    "REQUESTS_RUNNING, MODEL, 8",
    "REQUESTS_WAITING, POD,   2",
    "ENGINES_ASLEEP,   POD,   1", // engine 0 at level 1, once though two processes say so
  })
  void gaugesTakeTheMaxOverApiProcesses(Signal signal, Level level, double want) {
    assertThat(now(signal, level)).isEqualTo(want);
  }
}
