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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The same work as {@link TextParseBenchmark}, timed in thread CPU time instead of wall time: on a
 * machine shared with other builds, wall time measures the scheduler; CPU time measures the parser
 * per core. Prints the median of 15 rounds after 10 rounds of warm-up.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.infermon.benchmarks.textparse.TextParseCpuMain \
 *   textparse/src/test/resources/prometheus-textparse/alltypes.237mfs.prom.txt
 * </pre>
 */
public final class TextParseCpuMain {
  private TextParseCpuMain() {}

  public static void main(String[] args) throws IOException, ParseException {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (String path : args) {
      byte[] body = Files.readAllBytes(Path.of(path));
      ParserFactory f = Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT);
      SymbolTable symbols = new SymbolTable();
      for (String mode : new String[] {"seriesBytes", "labels"}) {
        boolean labels = mode.equals("labels");
        int samples = 0;
        double[] nsPerOp = new double[15];
        long sink = 0;
        for (int round = -10; round < nsPerOp.length; round++) {
          int ops = 500;
          long t0 = mx.getCurrentThreadCpuTime();
          for (int k = 0; k < ops; k++) {
            Parser p = f.parse(body, 0, body.length, symbols);
            samples = 0;
            for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
              if (e == Entry.SERIES) {
                samples++;
                sink += labels ? p.labels().size() : p.seriesHash();
                sink += (long) p.value();
              }
            }
          }
          long cpu = mx.getCurrentThreadCpuTime() - t0;
          if (round >= 0) {
            nsPerOp[round] = (double) cpu / ops;
          }
        }
        Arrays.sort(nsPerOp);
        double ns = nsPerOp[nsPerOp.length / 2];
        System.out.printf(
            Locale.ROOT,
            "%s %s: %.1f us/op CPU, %.0f MB/s, %.2f M samples/s per core (%d bytes, %d samples)"
                + " [sink %d]%n",
            Path.of(path).getFileName(),
            mode,
            ns / 1e3,
            body.length / ns * 1e3,
            samples / ns * 1e3,
            body.length,
            samples,
            sink & 1);
      }
    }
  }
}
