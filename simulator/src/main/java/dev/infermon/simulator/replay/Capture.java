package dev.infermon.simulator.replay;

import dev.infermon.simulator.text.PyFloat;
import dev.infermon.textparse.Format;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real {@code /metrics} page, read once with textparse, that renders the page the same target
 * would serve later: {@link #render(double, Duration) render(factor, uptime)} multiplies every
 * counter, histogram {@code _bucket}/{@code _count}/{@code _sum} and summary {@code _count}/{@code
 * _sum} by {@code factor} and leaves everything else as captured. One factor for all of them keeps
 * a histogram's buckets cumulative, its {@code _count} equal to its {@code +Inf} bucket, its mean
 * ({@code _sum/_count}) and its bucket shares (so its quantiles), and every ratio between counters.
 * The exception is a counter that counts since before its process started and whose rate a gauge on
 * the page states (dcgm's energy since GPU boot beside its power draw, {@link StatedRates}): it
 * grows at the stated rate for {@code (factor - 1) x uptime}.
 *
 * <p>What is kept byte for byte: every line that does not advance (comments, {@code HELP}, {@code
 * TYPE}, gauges with their value as written, three-digit exponents included), line order ({@code
 * _sum} before {@code _bucket}), each series as written (label order, escapes), exemplars, and the
 * format (text or OpenMetrics, by {@link dev.infermon.textparse.Parsers#sniff}). What changes:
 * sample timestamps are dropped (they date from the capture; a live target's samples take the
 * scrape's time), a missing final newline is added, a cut page in OpenMetrics gets its {@code #
 * EOF}, and advanced values are written as prometheus_client does ({@code floatToGoString}), or as
 * integers where the capture wrote integers. At factor 1 the captured value text is written.
 *
 * <p>Whole numbers: a counter the capture wrote as an integer (Go exporters) is rounded down to
 * one. In OpenMetrics, which requires whole-number bucket and count values, counts are rounded down
 * too (floor keeps them cumulative and {@code _count} equal to {@code +Inf}; the shares hold to
 * within one observation) and each {@code _sum} grows with its {@code _count}, so the mean stays
 * exact. In the text format counts grow by the factor itself, fractions included, so every bucket's
 * share, hence every quantile, stays exactly the capture's at any rate.
 *
 * <p>Which lines are dropped: the last line when it does not parse and either the page lacks a
 * final newline or its name marks it as an excerpt ({@code TRUNCATED} or {@code EXCERPT}); in an
 * excerpt also the {@code HELP}/{@code TYPE} lines after its last sample (a family cut before its
 * first sample). Any other line that does not parse is a {@link CaptureException}.
 *
 * <p>Immutable and thread-safe.
 */
public final class Capture {
  private final String name;
  private final Format format;
  private final List<Chunk> chunks;
  private final int samples;
  private final int advancing;
  private final List<Integer> droppedLines;
  private final String engine;
  private final int sizeHint;

  Capture(
      String name,
      Format format,
      List<Chunk> chunks,
      int samples,
      int advancing,
      List<Integer> droppedLines,
      String engine,
      int sizeHint) {
    this.name = name;
    this.format = format;
    this.chunks = List.copyOf(chunks);
    this.samples = samples;
    this.advancing = advancing;
    this.droppedLines = List.copyOf(droppedLines);
    this.engine = engine;
    this.sizeHint = sizeHint;
  }

  /**
   * Reads a page.
   *
   * @param name what error messages call it (its file name); {@code TRUNCATED} or {@code EXCERPT}
   *     in it marks an excerpt
   * @throws CaptureException when a line other than a cut last one does not parse
   */
  public static Capture parse(String name, byte[] page) throws CaptureException {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a capture needs a name");
    }
    if (page == null) {
      throw new IllegalArgumentException("capture " + name + " has no page");
    }
    return CaptureParser.parse(name, page);
  }

  /**
   * Reads a capture file; it is named by {@code file} as given.
   *
   * @throws IOException when the file cannot be read
   * @throws CaptureException when it is not an exposition page
   */
  public static Capture read(Path file) throws IOException, CaptureException {
    return parse(file.toString(), Files.readAllBytes(file));
  }

  /** The name given (the file). */
  public String name() {
    return name;
  }

  /** The page's format: the replay serves it in the format it was captured in. */
  public Format format() {
    return format;
  }

  /** The Content-Type to serve the page with. */
  public String contentType() {
    return format.contentType();
  }

  /** Sample lines served. */
  public int samples() {
    return samples;
  }

  /** Sample lines that advance (counters, histogram and summary counts and sums). */
  public int advancingSamples() {
    return advancing;
  }

  /** The 1-based numbers of the lines dropped as cut, in order; empty for a whole page. */
  public List<Integer> droppedLines() {
    return droppedLines;
  }

  /**
   * The engine the page's names belong to: {@code vllm}, {@code sglang}, {@code dcgm}, or empty (an
   * unprefixed page such as NIM's). The first engine-prefixed sample decides.
   */
  public String engine() {
    return engine;
  }

  /**
   * The page with every advancing value multiplied by {@code factor}: 1 is the capture itself, 2
   * the same target after as much traffic again; 0 is the process's start (counters at zero).
   * {@code uptime} is how long the captured counters took to reach their values: the time that
   * counters with a stated rate grow for is {@code (factor - 1) x uptime} (never below their
   * captured value, never below 0).
   *
   * @throws IllegalArgumentException if {@code factor} is negative, infinite or NaN, or {@code
   *     uptime} is not positive
   */
  public String render(double factor, Duration uptime) {
    if (!(factor >= 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("factor must be finite and >= 0, got " + factor);
    }
    if (uptime == null || uptime.isNegative() || uptime.isZero()) {
      throw new IllegalArgumentException("uptime must be positive, got " + uptime);
    }
    double seconds = Math.max(0, factor - 1) * (uptime.toMillis() / 1000.0);
    StringBuilder sb = new StringBuilder(sizeHint);
    for (Chunk c : chunks) {
      c.appendTo(sb, factor, seconds);
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "Capture[" + name + ", " + format + ", " + samples + " samples]";
  }

  /** A run of lines of the rendered page. */
  sealed interface Chunk permits Text, Advancing {
    /** Writes the lines at {@code factor}, {@code seconds} after the capture (for stated rates). */
    void appendTo(StringBuilder sb, double factor, double seconds);
  }

  /** Lines written as they are. */
  record Text(String text) implements Chunk {
    @Override
    public void appendTo(StringBuilder sb, double factor, double seconds) {
      sb.append(text);
    }
  }

  /**
   * One advancing sample line.
   *
   * @param prefix the series as written and a space
   * @param literal the value as captured, written at factor 1
   * @param base the captured value
   * @param integers the capture wrote the value as an integer
   * @param floor round down to whole numbers (a counter captured as an integer; an OpenMetrics
   *     count)
   * @param count the captured {@code _count} whose whole-number growth a {@code _sum} follows (so
   *     that its mean stays exact), or NaN to grow by the factor itself
   * @param perSecond the growth per second a gauge on the page states for this counter, or NaN to
   *     grow by the factor
   * @param suffix what follows the value (an exemplar) and the newline
   */
  record Advancing(
      String prefix,
      String literal,
      double base,
      boolean integers,
      boolean floor,
      double count,
      double perSecond,
      String suffix)
      implements Chunk {
    @Override
    public void appendTo(StringBuilder sb, double factor, double seconds) {
      sb.append(prefix);
      if (factor == 1) {
        sb.append(literal);
      } else {
        sb.append(format(value(factor, seconds), integers));
      }
      sb.append(suffix);
    }

    double value(double factor, double seconds) {
      if (!Double.isNaN(perSecond)) {
        double v = base + perSecond * seconds;
        return floor ? Math.floor(v) : v;
      }
      if (count > 0) {
        return base * (Math.floor(count * factor) / count);
      }
      double v = base * factor;
      return floor ? Math.floor(v) : v;
    }

    private static String format(double v, boolean integers) {
      if (integers && v == Math.rint(v) && Math.abs(v) < 1e15) {
        return Long.toString((long) v);
      }
      return PyFloat.format(v);
    }
  }
}
