package dev.infermon.benchmarks.llm;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.diagnosis.DiagnosisRequest;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.storage.testing.MemoryStorage;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one diagnosis of the default 30-minute window costs as the fleet grows, the figure behind
 * the alert annotator's budget (docs/alerting.md): for each vLLM pod count given, a simulated fleet
 * (those pods, one SGLang pod, a prefill/decode pair, dcgm-exporter; one model) is scraped every 15
 * s for 31 minutes into a memory store, then diagnosed through the embedded query backend, 2
 * warm-up rounds and {@code rounds} measured, each ending a second earlier (so no result is
 * reused). Prints the best and median wall time and the thread CPU time of the best.
 *
 * <p>Usage: {@code DiagnosisCostMain <rounds> <vllm pods>...}
 */
public final class DiagnosisCostMain {
  private DiagnosisCostMain() {}

  public static void main(String[] args) {
    if (args.length < 2) {
      System.err.println("usage: DiagnosisCostMain <rounds> <vllm pods>...");
      System.exit(2);
    }
    int rounds = Integer.parseInt(args[0]);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    System.out.println("vllm_pods diagnosed_pods best_ms median_ms cpu_ms_of_best");
    for (int i = 1; i < args.length; i++) {
      int vllm = Integer.parseInt(args[i]);
      Fleet fleet = Fleet.create(config(vllm), 1_780_000_000_000L);
      MemoryStorage storage = new MemoryStorage();
      new FleetScrape(storage, true).run(fleet, Duration.ofMinutes(31));
      DiagnosisService d =
          new DiagnosisService(
              new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS)),
              Catalog.builtIn());
      long end = fleet.nowMillis();
      int pods = 0;
      long[] wall = new long[rounds];
      long bestCpu = 0;
      long best = Long.MAX_VALUE;
      for (int r = -2; r < rounds; r++) {
        long c0 = cpu.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        pods = d.diagnose(at(end - 1000L * (r + 2))).pods().size();
        long t = System.nanoTime() - t0;
        long c = cpu.getCurrentThreadCpuTime() - c0;
        if (r >= 0) {
          wall[r] = t;
          if (t < best) {
            best = t;
            bestCpu = c;
          }
        }
      }
      java.util.Arrays.sort(wall);
      System.out.printf(
          "%d %d %.0f %.0f %.0f%n", vllm, pods, best / 1e6, wall[rounds / 2] / 1e6, bestCpu / 1e6);
    }
  }

  private static FleetConfig config(int vllm) {
    return FleetConfig.builder()
        .vllmPods(vllm)
        .dataParallelPods(0)
        .legacyVllmPods(0)
        .sglangPods(1)
        .sglangGatewayPods(0)
        .prefillDecode(true)
        .models(List.of(ModelProfile.LLAMA_8B.name()))
        .build();
  }

  private static DiagnosisRequest at(long endMs) {
    return new DiagnosisRequest(
        OptionalLong.empty(), OptionalLong.of(endMs), OptionalLong.empty(), OptionalLong.empty());
  }
}
