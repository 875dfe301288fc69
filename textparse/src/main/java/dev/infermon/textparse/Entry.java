package dev.infermon.textparse;

/** The kind of line a {@link Parser} stopped at; its accessors then describe that line. */
public enum Entry {
  /** {@code # HELP name text}: {@link Parser#familyName()}, {@link Parser#help()}. */
  HELP,
  /** {@code # TYPE name type}: {@link Parser#familyName()}, {@link Parser#type()}. */
  TYPE,
  /** {@code # UNIT name unit} (OpenMetrics): {@link Parser#familyName()}, {@link Parser#unit()}. */
  UNIT,
  /** Any other comment line (text format only): {@link Parser#comment()}. */
  COMMENT,
  /** A sample: series, value, optional timestamp and (OpenMetrics) exemplar. */
  SERIES,
  /** The end of the page ({@code # EOF} in OpenMetrics); every later call returns it again. */
  EOF
}
