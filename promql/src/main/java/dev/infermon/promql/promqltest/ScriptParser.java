package dev.infermon.promql.promqltest;

import dev.infermon.promql.promqltest.EvalCommand.ExpectType;
import dev.infermon.promql.promqltest.EvalCommand.Expectation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Parses a promqltest script into {@link Command}s, with the syntax of Prometheus's {@code
 * promql/promqltest/test.go}: commands separated by blank lines, {@code #} comments, the older
 * {@code eval_fail}/{@code eval_warn}/{@code eval_info}/{@code eval_ordered} prefixes and the newer
 * {@code expect} lines. Stateless.
 */
public final class ScriptParser {
  private static final Pattern SPACE = Pattern.compile("[\t ]+");
  private static final Pattern LOAD = Pattern.compile("^load(?:_(with_nhcb))?\\s+(.+?)$");
  private static final Pattern EVAL_INSTANT =
      Pattern.compile(
          "^eval(?:_(fail|warn|ordered|info))?\\s+instant\\s+(?:at\\s+(.+?))?\\s+(.+)$");
  private static final Pattern EVAL_RANGE =
      Pattern.compile(
          "^eval(?:_(fail|warn|info))?\\s+range\\s+from\\s+(.+)\\s+to\\s+(.+)\\s+step\\s+(.+?)\\s+(.+)$");
  private static final Pattern EXPECT =
      Pattern.compile(
          "^expect\\s+(ordered|fail|warn|no_warn|info|no_info)(?:\\s+(regex|msg):(.+))?$");
  private static final Pattern EXPECT_RANGE =
      Pattern.compile("^expect range vector\\s+from\\s+(.+)\\s+to\\s+(.+)\\s+step\\s+(.+)$");
  private static final String EXPECT_STRING = "expect string";

  private ScriptParser() {}

  /**
   * Parses a script.
   *
   * @param file a name for messages
   * @throws ScriptFailure naming the file and line when the script is malformed
   */
  public static List<Command> parse(String file, String text) {
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].trim();
      lines[i] = l.startsWith("#") ? "" : l;
    }
    List<Command> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (l.isEmpty()) {
        continue;
      }
      String c = SPACE.split(l, 2)[0].toLowerCase(Locale.ROOT);
      try {
        if (c.equals("clear")) {
          out.add(new Command.Clear(i + 1));
        } else if (c.startsWith("load")) {
          i = parseLoad(lines, i, out);
        } else if (c.startsWith("eval")) {
          i = parseEval(file, lines, i, out);
        } else {
          throw new IllegalArgumentException("invalid command \"" + l + "\"");
        }
      } catch (RuntimeException e) {
        if (e instanceof ScriptFailure) {
          throw e;
        }
        throw new ScriptFailure(file + ":" + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static int parseLoad(String[] lines, int i, List<Command> out) {
    Matcher m = LOAD.matcher(lines[i]);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "invalid load command. (load[_with_nhcb] <step:duration>)");
    }
    int line = i + 1;
    long step = Durations.parse(m.group(2));
    List<SeriesDescription> series = new ArrayList<>();
    while (i + 1 < lines.length && !lines[i + 1].isEmpty()) {
      i++;
      if (lines[i].contains("@st ") || lines[i].startsWith("@st")) {
        throw new IllegalArgumentException("start-timestamp (@st) lines are not supported");
      }
      series.add(SeriesDescription.parse(lines[i]));
    }
    out.add(new Command.Load(line, step, series, m.group(1) != null));
    return i;
  }

  private static int parseEval(String file, String[] lines, int i, List<Command> out) {
    Matcher inst = EVAL_INSTANT.matcher(lines[i]);
    Matcher rng = EVAL_RANGE.matcher(lines[i]);
    boolean instant = inst.matches();
    if (!instant && !rng.matches()) {
      throw new IllegalArgumentException(
          "invalid evaluation command. Must be either 'eval[_fail|_warn|_ordered] instant [at"
              + " <offset:duration>] <query>' or 'eval[_fail|_warn] range from <from> to <to> step"
              + " <step> <query>'");
    }
    EvalCommand cmd;
    String mod;
    if (instant) {
      mod = inst.group(1);
      long at = inst.group(2) == null ? 0 : Durations.parse(inst.group(2));
      cmd = new EvalCommand(file, i + 1, inst.group(3), false, at, at, 0);
    } else {
      mod = rng.group(1);
      long from = Durations.parse(rng.group(2));
      long to = Durations.parse(rng.group(3));
      long step = Durations.parse(rng.group(4));
      if (to < from) {
        throw new IllegalArgumentException(
            "invalid test definition, end timestamp ("
                + rng.group(3)
                + ") is before start timestamp ("
                + rng.group(2)
                + ")");
      }
      cmd = new EvalCommand(file, i + 1, rng.group(5), true, from, to, step);
    }
    if (mod != null) {
      switch (mod) {
        case "ordered":
          cmd.ordered = true;
          break;
        case "fail":
          cmd.fail = true;
          break;
        case "warn":
          cmd.warn = true;
          break;
        default:
          cmd.info = true;
      }
    }
    int j = 1;
    while (i + 1 < lines.length && !lines[i + 1].isEmpty()) {
      i++;
      String def = lines[i];
      if (cmd.fail && def.startsWith("expected_fail_message")) {
        cmd.expectedFailMessage = def.substring("expected_fail_message".length()).trim();
        break;
      }
      if (cmd.fail && def.startsWith("expected_fail_regexp")) {
        cmd.expectedFailRegexp =
            Pattern.compile(def.substring("expected_fail_regexp".length()).trim());
        break;
      }
      if (def.startsWith("expect range vector")) {
        Matcher m = EXPECT_RANGE.matcher(def);
        if (!m.matches()) {
          throw new IllegalArgumentException("invalid range vector definition \"" + def + "\"");
        }
        cmd.rangeVectorResult = true;
        cmd.rangeVectorStart = Durations.parse(m.group(1));
        cmd.rangeVectorEnd = Durations.parse(m.group(2));
        cmd.rangeVectorStep = Durations.parse(m.group(3));
        cmd.excludeFromRangeQuery = true;
        continue;
      }
      if (def.startsWith(EXPECT_STRING)) {
        cmd.expectedString = unquote(def.substring(EXPECT_STRING.length()).trim());
        cmd.excludeFromRangeQuery = true;
        continue;
      }
      if (SPACE.split(def, 2)[0].equals("expect")) {
        parseExpect(def, cmd);
        continue;
      }
      Double number = number(def);
      if (number != null) {
        cmd.expectScalar = true;
        cmd.scalar = number;
        break;
      }
      SeriesDescription sd = SeriesDescription.parse(def);
      if (sd.hasHistogram()) {
        cmd.histogramExpected = true;
      }
      if (sd.size() > 1 && instant && !cmd.rangeVectorResult) {
        throw new IllegalArgumentException(
            "expecting multiple values in instant evaluation not allowed");
      }
      cmd.expected.put(sd.labels(), new EvalCommand.Expected(j, sd));
      j++;
    }
    out.add(cmd);
    return i;
  }

  private static void parseExpect(String def, EvalCommand cmd) {
    Matcher m = EXPECT.matcher(def.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "invalid expect statement, must match `expect <type> <match_type>: <string>` format");
    }
    ExpectType type = ExpectType.valueOf(m.group(1).toUpperCase(Locale.ROOT));
    Expectation e;
    if (m.group(2) == null) {
      e = new Expectation(null, null);
    } else if (m.group(2).equals("msg")) {
      e = new Expectation(m.group(3).trim(), null);
    } else {
      try {
        e = new Expectation(null, Pattern.compile(m.group(3).trim()));
      } catch (PatternSyntaxException ex) {
        throw new IllegalArgumentException("invalid regex " + m.group(3).trim(), ex);
      }
    }
    cmd.addExpect(type, e);
  }

  /** A bare number line (a scalar expectation), or null. */
  private static Double number(String s) {
    try {
      if (s.startsWith("0x") || s.startsWith("0X")) {
        return (double) Long.parseLong(s.substring(2), 16);
      }
      String lower = s.toLowerCase(Locale.ROOT);
      switch (lower) {
        case "inf":
        case "+inf":
          return Double.POSITIVE_INFINITY;
        case "-inf":
          return Double.NEGATIVE_INFINITY;
        case "nan":
          return Double.NaN;
        default:
          if (!s.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            return null;
          }
          return Double.parseDouble(s);
      }
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String unquote(String s) {
    if (s.length() < 2
        || (s.charAt(0) != '"' && s.charAt(0) != '`')
        || s.charAt(s.length() - 1) != s.charAt(0)) {
      throw new IllegalArgumentException(
          "expected string literal not valid - a quoted string literal is required");
    }
    return new SeriesDescription.Cursor(s).quoted();
  }
}
