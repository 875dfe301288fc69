package dev.infermon.lint.diagnosis;

import dev.infermon.simulator.Scenario;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TmpSatTest {
  @Test
  void dump() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (Scenario sc :
        new Scenario[] {
          Scenario.SATURATED, Scenario.KV_PRESSURE, Scenario.HEALTHY, Scenario.IDLE_GPU_LONG_QUEUE
        }) {
      ScrapedFleet f = new ScrapedFleet(DiagnosisScenariosTest.fleet()).run(Duration.ofMinutes(10));
      f.fleet.setScenario(sc);
      long sw = f.now();
      f.run(Duration.ofMinutes(15));
      for (String q :
          new String[] {
            "sum by (pod) (vllm:num_requests_running)",
            "sum by (pod) (vllm:num_requests_waiting)",
            "max by (pod) (vllm:kv_cache_usage_perc)",
            "max by (pod) (DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE + DCGM_FI_DEV_FB_RESERVED))"
          }) {
        sb.append(sc).append(' ').append(q).append('\n');
        var r = f.backend.rangeQuery(q, sw, f.now(), 60_000);
        sb.append(r.value()).append('\n');
      }
    }
    java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/sat.txt"), sb.toString());
  }
}
