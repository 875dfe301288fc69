package dev.infermon.textparse;

/**
 * The one error a {@link Parser} throws: the page (or the stream under it) is not valid. It is
 * checked, because every caller that feeds a parser untrusted bytes must decide what a bad page
 * means (the scrape layer rejects the whole scrape, {@code infermon check metrics} reports it).
 *
 * <p>Carries the 1-based line and column where parsing stopped; the column counts Unicode code
 * points. The message quotes the offending token.
 */
public final class ParseException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why parsing stopped. */
  public enum Reason {
    /** The line does not follow the format's grammar. */
    SYNTAX,
    /** The line follows the grammar but breaks a family rule ({@link Conformance#STRICT}). */
    CONFORMANCE,
    /** A configured limit ({@link ParserOptions}) was exceeded. */
    LIMIT,
    /** Reading the body failed; the cause is the I/O error. */
    IO,
    /** A defect of the parser itself; the cause is the unexpected exception. */
    INTERNAL
  }

  private final Reason reason;
  private final int line;
  private final int column;
  private final String detail;
  private final boolean lineLocal;

  ParseException(
      Reason reason, int line, int column, String detail, boolean lineLocal, Throwable cause) {
    super("line " + line + ", column " + column + ": " + detail, cause);
    this.reason = reason;
    this.line = line;
    this.column = column;
    this.detail = detail;
    this.lineLocal = lineLocal;
  }

  /** Why parsing stopped. */
  public Reason reason() {
    return reason;
  }

  /** The 1-based line where parsing stopped. */
  public int line() {
    return line;
  }

  /** The 1-based column (in code points) where parsing stopped. */
  public int column() {
    return column;
  }

  /** The message without the line and column prefix. */
  public String detail() {
    return detail;
  }

  /**
   * True when the error concerns one line only, so that calling {@link Parser#next()} again resumes
   * at the following line. Checkers use this to report every bad line; the scrape path stops at the
   * first error whatever this says.
   */
  public boolean isLineLocal() {
    return lineLocal;
  }
}
