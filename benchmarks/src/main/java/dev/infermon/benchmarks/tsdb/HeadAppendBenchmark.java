package dev.infermon.benchmarks.tsdb;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.tsdb.head.Head;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Append throughput through the head's {@link Appender} on one thread: one hour of a 10,560-series
 * vLLM fleet (28 pods) at 15 s, one transaction per pod and scrape with cached references, as the
 * scrape loop does. Values are generated beforehand so only the head is measured. One operation is
 * one sample.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class HeadAppendBenchmark {
  static final int PODS = 28;
  static final int SCRAPES = 240;
  static final int SAMPLES = PODS * 379 * SCRAPES;

  private List<Labels> labels;
  private double[][] values;
  private long[] times;
  private int perPod;

  @Setup(Level.Trial)
  public void generate() {
    LlmSeriesGenerator gen = LlmSeriesGenerator.vllmFleet(PODS, 1);
    if (gen.size() * SCRAPES != SAMPLES) {
      throw new IllegalStateException("capture changed: " + gen.size() + " series");
    }
    labels = gen.labels();
    perPod = gen.seriesPerPod();
    values = new double[SCRAPES][gen.size()];
    times = new long[SCRAPES];
    for (int s = 0; s < SCRAPES; s++) {
      times[s] = gen.next(values[s]);
    }
  }

  @Benchmark
  @OperationsPerInvocation(SAMPLES)
  public Head appendOneHour() {
    Head head = Head.create();
    long[] refs = new long[labels.size()];
    for (int s = 0; s < SCRAPES; s++) {
      long t = times[s];
      double[] v = values[s];
      for (int p = 0, j = 0; p < PODS; p++) {
        Appender app = head.appender();
        for (int end = j + perPod; j < end; j++) {
          refs[j] = app.append(refs[j], labels.get(j), t, v[j]);
        }
        app.commit();
      }
    }
    return head;
  }
}
