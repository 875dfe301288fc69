package dev.infermon.benchmarks.textparse;

import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserFactory;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import dev.infermon.textparse.SymbolTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Parse throughput of one whole page, single thread, with the default options (text format,
 * lenient, as the scrape path reads it).
 *
 * <ul>
 *   <li>{@code seriesBytes}: the scrape-cache hit path: {@code next()}, the series bytes' hash,
 *       value and timestamp per sample, no Strings. Goal: no allocation per sample.
 *   <li>{@code labels}: the cache miss path: a sorted {@code Labels} built per sample.
 * </ul>
 *
 * <p>Pages are read from files relative to the working directory (run from the repository root):
 * the 190 KB, 1,857-sample {@code alltypes.237mfs.prom.txt} that Prometheus benchmarks its own
 * parser on, and the vLLM V1 capture. MB/s = page bytes / time per op; bytes per sample = JMH's
 * {@code gc.alloc.rate.norm} / samples per page. Figures and command: {@code docs/benchmarks.md}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TextParseBenchmark {
  @Param({
    "textparse/src/test/resources/prometheus-textparse/alltypes.237mfs.prom.txt",
    "textparse/src/test/resources/fixtures/vllm/vllm-0.11.x-idle.txt"
  })
  public String page;

  private byte[] body;
  private ParserFactory factory;
  private SymbolTable symbols;

  @Setup(Level.Trial)
  public void load() {
    try {
      body = Files.readAllBytes(Path.of(page));
    } catch (IOException e) {
      throw new UncheckedIOException("run from the repository root: " + page, e);
    }
    factory = Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT);
    // One table for all parses, as a scrape loop keeps one per target.
    symbols = new SymbolTable();
  }

  @Benchmark
  public long seriesBytes(Blackhole bh) throws ParseException {
    Parser p = factory.parse(body, 0, body.length, symbols);
    long samples = 0;
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      if (e == Entry.SERIES) {
        bh.consume(p.seriesHash());
        bh.consume(p.value());
        bh.consume(p.timestamp());
        samples++;
      }
    }
    return samples;
  }

  @Benchmark
  public long labels(Blackhole bh) throws ParseException {
    Parser p = factory.parse(body, 0, body.length, symbols);
    long samples = 0;
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      if (e == Entry.SERIES) {
        bh.consume(p.labels());
        bh.consume(p.value());
        samples++;
      }
    }
    return samples;
  }
}
