package dev.infermon.simulator.replay;

/**
 * A file given as a capture is not an exposition page: a line other than a cut last one does not
 * parse. Names the capture, the 1-based line and column, and the parser's reason, as {@code
 * infermon check metrics} does, so the user can open the file at that place.
 */
public final class CaptureException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String capture;
  private final int line;
  private final int column;
  private final String detail;

  CaptureException(String capture, int line, int column, String detail) {
    super(capture + ":" + line + ":" + column + ": not an exposition page: " + detail);
    this.capture = capture;
    this.line = line;
    this.column = column;
    this.detail = detail;
  }

  /** The capture's name (its file, as given). */
  public String capture() {
    return capture;
  }

  /** The 1-based line that does not parse. */
  public int line() {
    return line;
  }

  /** The 1-based column (code points) where parsing stopped. */
  public int column() {
    return column;
  }

  /** The parser's reason, without the position. */
  public String detail() {
    return detail;
  }
}
