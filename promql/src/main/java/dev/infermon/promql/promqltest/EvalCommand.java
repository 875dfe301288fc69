package dev.infermon.promql.promqltest;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An {@code eval instant} or {@code eval range} command with what it expects. Built by {@link
 * ScriptParser}; read by {@link Session}.
 */
public final class EvalCommand implements Command {
  /** The kinds of {@code expect} line. */
  enum ExpectType {
    ORDERED,
    FAIL,
    WARN,
    NO_WARN,
    INFO,
    NO_INFO
  }

  /** An expected message ({@code msg:}) or pattern ({@code regex:}); neither matches anything. */
  record Expectation(String message, Pattern regex) {
    boolean matches(String s) {
      if (regex != null) {
        return regex.matcher(s).find();
      }
      if (message == null) {
        return true;
      }
      return message.equals(s) || stripPosition(message).equals(s);
    }

    /** Annotations here carry no source position; compare without Prometheus's " (1:5)". */
    static String stripPosition(String m) {
      return m.replaceFirst(" \\(\\d+:\\d+\\)$", "");
    }

    @Override
    public String toString() {
      return regex != null ? regex.pattern() : String.valueOf(message);
    }
  }

  /** An expected series: its position among the expected lines and its values. */
  record Expected(int pos, SeriesDescription series) {}

  final int line;
  final String file;
  final String expr;
  final boolean range;
  final long start;
  final long end;
  final long step;
  boolean fail;
  boolean warn;
  boolean info;
  boolean ordered;
  String expectedFailMessage;
  Pattern expectedFailRegexp;
  final Map<ExpectType, List<Expectation>> expects = new EnumMap<>(ExpectType.class);
  boolean expectScalar;
  double scalar;
  final Map<Labels, Expected> expected = new LinkedHashMap<>();
  String expectedString;
  boolean excludeFromRangeQuery;
  boolean histogramExpected;

  /** An instant eval turned into a range-vector check by {@code expect range vector}. */
  boolean rangeVectorResult;

  long rangeVectorStart;
  long rangeVectorEnd;
  long rangeVectorStep;

  EvalCommand(String file, int line, String expr, boolean range, long start, long end, long step) {
    this.file = file;
    this.line = line;
    this.expr = expr;
    this.range = range;
    this.start = start;
    this.end = end;
    this.step = step;
  }

  @Override
  public int line() {
    return line;
  }

  /** The file the command came from. */
  public String file() {
    return file;
  }

  /** The PromQL expression as written. */
  public String expr() {
    return expr;
  }

  /** Whether this is {@code eval range}. */
  public boolean isRange() {
    return range;
  }

  boolean isFail() {
    return fail || !expects(ExpectType.FAIL).isEmpty();
  }

  boolean isOrdered() {
    return ordered || !expects(ExpectType.ORDERED).isEmpty();
  }

  List<Expectation> expects(ExpectType t) {
    return expects.getOrDefault(t, List.of());
  }

  void addExpect(ExpectType t, Expectation e) {
    expects.computeIfAbsent(t, k -> new ArrayList<>()).add(e);
  }

  /** A readable name for test reports: {@code file:line expr}. */
  public String displayName() {
    return file + ":" + line + " " + expr;
  }

  @Override
  public String toString() {
    return displayName();
  }
}
