package dev.infermon.benchmarks.simulator;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What backfilling history with the simulator costs, for the default fleet (11 inference pods, 4
 * dcgm-exporters): {@code simulateHour} runs one simulated hour of the queueing model (healthy load
 * at the daily peak); {@code snapshot} renders every page once, what a backfill does every 15 s of
 * simulated time.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar FleetBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class FleetBenchmark {
  private static final long T0 = 1_790_000_000_000L; // 14:13 UTC, near the daily peak
  private Fleet fleet;

  @Setup(Level.Iteration)
  public void setUp() {
    fleet = Fleet.create(FleetConfig.defaults(), T0);
    fleet.advance(Duration.ofMinutes(30));
  }

  @Benchmark
  public long simulateHour() {
    fleet.advance(Duration.ofHours(1));
    return fleet.nowMillis();
  }

  @Benchmark
  public int snapshot() {
    fleet.advance(Duration.ofSeconds(15));
    return fleet.snapshot().pages().size();
  }
}
