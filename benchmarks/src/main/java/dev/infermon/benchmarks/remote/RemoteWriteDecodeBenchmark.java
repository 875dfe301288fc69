package dev.infermon.benchmarks.remote;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.model.labels.Labels;
import dev.infermon.remote.prompb.WriteRequestEncoder;
import dev.infermon.web.remotewrite.InvalidWriteRequestException;
import dev.infermon.web.remotewrite.WriteRequest;
import dev.infermon.web.remotewrite.WriteRequestDecoder;
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
 * The remote-write receiver's decoding of one request as Prometheus sends them (2,000 samples, one
 * per series, {@code max_samples_per_send}'s default) of a 28-pod vLLM fleet, with the snappy step
 * included. One operation is one sample; run with {@code -prof gc} for the bytes allocated per
 * sample, which decide how often a small heap collects while it receives a backfill.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
public class RemoteWriteDecodeBenchmark {
  static final int SAMPLES = 2_000;

  private byte[] body;

  @Setup(Level.Trial)
  public void encode() {
    LlmSeriesGenerator gen = LlmSeriesGenerator.vllmFleet(28, 1);
    double[] values = new double[gen.size()];
    long t = gen.next(values);
    Labels[] labels = gen.labels().subList(0, SAMPLES).toArray(Labels[]::new);
    long[] ts = new long[SAMPLES];
    java.util.Arrays.fill(ts, t);
    body = new WriteRequestEncoder().encodeSamples(labels, ts, values, SAMPLES);
  }

  @Benchmark
  @OperationsPerInvocation(SAMPLES)
  public WriteRequest decode() throws InvalidWriteRequestException {
    return WriteRequestDecoder.decode(body, 64 << 20);
  }
}
