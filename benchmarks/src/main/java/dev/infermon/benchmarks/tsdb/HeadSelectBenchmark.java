package dev.infermon.benchmarks.tsdb;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.head.Head;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Select and decode throughput: a head holding 6 hours of a 50,000-series vLLM fleet at 15 s (72
 * million samples); each operation selects every series ({@code job="vllm"}) over the whole 6-hour
 * range and decodes every sample. The {@code samples} counter gives samples per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 3, time = 10)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx3g", "-XX:+UseParallelGC"})
public class HeadSelectBenchmark {
  static final int PODS = 132; // 132 × 379 = 50,028 series
  static final int SCRAPES = 6 * 240;

  private Head head;
  private long mint;
  private long maxt;

  @Setup(Level.Trial)
  public void fill() {
    LlmSeriesGenerator gen = LlmSeriesGenerator.vllmFleet(PODS, 1);
    head = Head.create();
    HeadFill.fill(head, gen, SCRAPES);
    mint = LlmSeriesGenerator.START_MS;
    maxt = mint + SCRAPES * LlmSeriesGenerator.STEP_MS;
  }

  /** Samples decoded, reported by JMH as a rate. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Decoded {
    public long samples;
    public long series;
  }

  @Benchmark
  public void selectAndDecodeSixHours(Decoded counted, Blackhole bh) {
    try (Querier q = head.querier()) {
      SeriesSet set = q.select(false, mint, maxt, List.of(Matcher.equal("job", "vllm")));
      while (set.next()) {
        SampleIterator it = set.at().iterator();
        long n = 0;
        double sum = 0;
        while (it.next()) {
          sum += it.value();
          n++;
        }
        bh.consume(sum);
        counted.samples += n;
        counted.series++;
      }
    }
  }
}
