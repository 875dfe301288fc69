package dev.infermon.textparse;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.MetricType;
import java.util.Optional;

/**
 * A pull parser over one exposition page, in the shape of Prometheus' {@code textparse.Parser}:
 * {@link #next()} moves to the next line of interest and says what it is, then the accessors for
 * that kind of {@link Entry} describe it.
 *
 * <pre>{@code
 * Parser p = Parsers.forContentType(contentType, ParserOptions.DEFAULT).parse(body);
 * for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
 *   if (e == Entry.SERIES) {
 *     // look the series up by its bytes first; build Labels only on a miss
 *     Labels labels = p.labels();
 *     append(labels, p.hasTimestamp() ? p.timestamp() : scrapeTime, p.value());
 *   }
 * }
 * }</pre>
 *
 * <p><b>Threading.</b> Not thread-safe: one thread drives one parser.
 *
 * <p><b>Lifetimes.</b> Strings, {@link Labels} and {@link Exemplar}s returned are immutable and
 * stay valid forever. The bytes behind {@link #seriesBuffer()} belong to the parser and are valid
 * only until the next call to {@link #next()}; copy what you keep. The parser never closes the
 * InputStream it reads; its caller does.
 *
 * <p><b>Allocation.</b> {@code next()}, {@link #value()}, {@link #timestamp()} and the series bytes
 * allocate nothing in the steady state (STRICT rules add a few objects per family, none per
 * sample). Names and values become Strings through a {@link SymbolTable}, so repeated symbols are
 * free; {@link #labels()} allocates the label set itself. A caller that caches series by their
 * bytes (as Prometheus' scrape cache does) builds labels only for series it has not seen.
 *
 * <p><b>Errors.</b> {@link ParseException} is the only exception bad input can cause. The lines
 * before the error have been delivered; for a cut page, that is every complete line. Calling an
 * accessor that does not belong to the current entry is a caller mistake and throws {@link
 * IllegalStateException}.
 */
public interface Parser {
  /**
   * Moves to the next entry. Blank lines are skipped (text format).
   *
   * @return the entry's kind; {@link Entry#EOF} at the end of the page, and on every later call
   * @throws ParseException when the next line is not valid; if {@link
   *     ParseException#isLineLocal()}, calling again continues with the following line, otherwise
   *     it throws the same exception again
   */
  Entry next() throws ParseException;

  /** The format this parser reads. */
  Format format();

  /** The 1-based line number of the current entry (0 before the first). */
  int line();

  /** The family named by the current HELP, TYPE or UNIT line. */
  String familyName();

  /** The current HELP line's text, unescaped. */
  String help();

  /**
   * A 64-bit hash of the current HELP, TYPE or UNIT line's family name and text, as written
   * (escapes not resolved; not cryptographic). Equal lines hash equal, so a caller that remembers
   * what a line said last time can skip {@link #familyName()} and {@link #help()} when it comes
   * again, as Prometheus's scrape cache compares metadata bytes.
   */
  long metadataHash();

  /**
   * The current TYPE line's type; the text format's {@code untyped} is {@link MetricType#UNKNOWN}.
   */
  MetricType type();

  /** The current UNIT line's unit (possibly empty). */
  String unit();

  /** The current COMMENT line, from {@code #} to the end of the line. */
  String comment();

  /**
   * The buffer holding the current sample's series as written (metric name and label braces,
   * without value, timestamp or exemplar): {@code seriesBuffer()[seriesOffset(), seriesOffset() +
   * seriesLength())}. Two samples of one page with equal series bytes are the same series; the
   * converse does not hold (label order and escapes may differ). Valid until the next {@link
   * #next()}.
   */
  byte[] seriesBuffer();

  /** Where the current series starts in {@link #seriesBuffer()}. */
  int seriesOffset();

  /** The length of the current series in {@link #seriesBuffer()}. */
  int seriesLength();

  /** A 64-bit hash of the current series bytes (not cryptographic; for cache lookups). */
  long seriesHash();

  /** The current sample's metric name (the sample name, e.g. {@code x_bucket}, not the family). */
  String metricName();

  /** The number of labels on the current sample, not counting the metric name. */
  int labelCount();

  /** The i-th label name of the current sample, in the order written. */
  String labelName(int i);

  /** The i-th label value of the current sample, in the order written, unescaped. */
  String labelValue(int i);

  /**
   * The current sample's labels, sorted, with the metric name as {@code __name__}; labels with
   * empty values are left out, as Prometheus does.
   */
  Labels labels();

  /** The current sample's value; every NaN read is the one NaN Prometheus uses for values. */
  double value();

  /** Whether the current sample carries a timestamp. */
  boolean hasTimestamp();

  /**
   * The current sample's timestamp in milliseconds since the epoch (OpenMetrics seconds converted
   * exactly, truncating sub-millisecond digits); 0 when it has none.
   */
  long timestamp();

  /** The current sample's exemplar (OpenMetrics only). */
  Optional<Exemplar> exemplar();
}
