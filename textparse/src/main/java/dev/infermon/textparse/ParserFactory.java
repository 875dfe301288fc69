package dev.infermon.textparse;

import java.io.InputStream;
import java.util.Objects;

/**
 * Makes parsers of one format with one set of options. Immutable and thread-safe; the parsers it
 * makes are not (one per page).
 */
public final class ParserFactory {
  private final Format format;
  private final ParserOptions options;

  ParserFactory(Format format, ParserOptions options) {
    this.format = Objects.requireNonNull(format, "format");
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The format the parsers read. */
  public Format format() {
    return format;
  }

  /** The options the parsers apply. */
  public ParserOptions options() {
    return options;
  }

  /** A parser over a whole body, with a fresh symbol table. The array is read, never written. */
  public Parser parse(byte[] body) {
    return parse(body, 0, body.length, new SymbolTable());
  }

  /**
   * A parser over {@code body[offset, offset + length)}, interning through {@code symbols} (share
   * one table across the parses of one target). The array must not change while parsing.
   *
   * @throws IndexOutOfBoundsException if the range is outside the array
   */
  public Parser parse(byte[] body, int offset, int length, SymbolTable symbols) {
    Objects.checkFromIndexSize(offset, length, body.length);
    Objects.requireNonNull(symbols, "symbols");
    return make(
        new LineReader(body, offset, length, options.maxBodyBytes(), options.maxLineBytes()),
        symbols);
  }

  /** A parser reading a stream, with a fresh symbol table. The caller closes the stream. */
  public Parser parse(InputStream body) {
    return parse(body, new SymbolTable());
  }

  /**
   * A parser reading a stream through one buffer of at most {@link ParserOptions#maxLineBytes()}
   * plus a read chunk, interning through {@code symbols}. The caller closes the stream.
   */
  public Parser parse(InputStream body, SymbolTable symbols) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(symbols, "symbols");
    return make(new LineReader(body, options.maxBodyBytes(), options.maxLineBytes()), symbols);
  }

  private Parser make(LineReader reader, SymbolTable symbols) {
    return format == Format.OPENMETRICS
        ? new OpenMetricsParser(reader, options, symbols)
        : new TextParser(reader, options, symbols);
  }

  @Override
  public String toString() {
    return "ParserFactory[" + format + ", " + options + "]";
  }
}
