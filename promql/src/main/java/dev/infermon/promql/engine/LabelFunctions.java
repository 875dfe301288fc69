package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.StringLiteral;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code label_replace} and {@code label_join}: they change series labels, not values. */
final class LabelFunctions {
  private LabelFunctions() {}

  static String stringArg(Expr e) {
    return ((StringLiteral) Functions.unwrap(e)).value();
  }

  static List<EvalSeries> labelReplace(Evaluator ev, List<Expr> args) {
    String dst = stringArg(args.get(1));
    String repl = stringArg(args.get(2));
    String src = stringArg(args.get(3));
    String regex = stringArg(args.get(4));
    Pattern p = InstantFunctions.compileAnchored(regex, "label_replace");
    if (!LabelNames.isValidLabelName(dst)) {
      throw new QueryException("invalid destination label name in label_replace(): " + dst);
    }
    List<EvalSeries> m = ev.eval(args.get(0));
    for (EvalSeries s : m) {
      String srcVal = s.labels.get(src);
      Matcher matcher = p.matcher(srcVal);
      if (matcher.matches()) {
        String res = expand(repl, matcher);
        s.labels = s.labels.toBuilder().set(dst, res).build();
        if (dst.equals(Labels.METRIC_NAME)) {
          s.dropName = false;
        }
      }
    }
    // Series that now share labels merge; two points at one time are an error.
    return Evaluator.mergeSameLabels(m);
  }

  static List<EvalSeries> labelJoin(Evaluator ev, List<Expr> args) {
    String dst = stringArg(args.get(1));
    String sep = stringArg(args.get(2));
    String[] srcs = new String[args.size() - 3];
    for (int i = 3; i < args.size(); i++) {
      srcs[i - 3] = stringArg(args.get(i));
      if (!LabelNames.isValidLabelName(srcs[i - 3])) {
        throw new QueryException("invalid source label name in label_join(): " + srcs[i - 3]);
      }
    }
    if (!LabelNames.isValidLabelName(dst)) {
      throw new QueryException("invalid destination label name in label_join(): " + dst);
    }
    List<EvalSeries> m = ev.eval(args.get(0));
    StringBuilder sb = new StringBuilder();
    for (EvalSeries s : m) {
      sb.setLength(0);
      for (int i = 0; i < srcs.length; i++) {
        if (i > 0) {
          sb.append(sep);
        }
        sb.append(s.labels.get(srcs[i]));
      }
      s.labels = s.labels.toBuilder().set(dst, sb.toString()).build();
      if (dst.equals(Labels.METRIC_NAME)) {
        s.dropName = false;
      }
    }
    // Series that now share labels merge; two points at one time are an error.
    return Evaluator.mergeSameLabels(m);
  }

  /** Go's {@code regexp.Expand}: {@code $1}, {@code ${1}}, {@code $name}, {@code $$}. */
  static String expand(String template, Matcher m) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '$' || i + 1 >= template.length()) {
        out.append(c);
        i++;
        continue;
      }
      char next = template.charAt(i + 1);
      if (next == '$') {
        out.append('$');
        i += 2;
        continue;
      }
      int nameStart;
      int nameEnd;
      int after;
      if (next == '{') {
        nameStart = i + 2;
        nameEnd = nameStart;
        while (nameEnd < template.length() && isNameChar(template.charAt(nameEnd))) {
          nameEnd++;
        }
        if (nameEnd == nameStart
            || nameEnd >= template.length()
            || template.charAt(nameEnd) != '}') {
          out.append('$');
          i++;
          continue;
        }
        after = nameEnd + 1;
      } else {
        nameStart = i + 1;
        nameEnd = nameStart;
        while (nameEnd < template.length() && isNameChar(template.charAt(nameEnd))) {
          nameEnd++;
        }
        if (nameEnd == nameStart) {
          out.append('$');
          i++;
          continue;
        }
        after = nameEnd;
      }
      String name = template.substring(nameStart, nameEnd);
      out.append(group(m, name));
      i = after;
    }
    return out.toString();
  }

  private static String group(Matcher m, String name) {
    boolean digits = true;
    for (int k = 0; k < name.length(); k++) {
      digits &= Character.isDigit(name.charAt(k));
    }
    try {
      String g;
      if (digits) {
        if (name.length() > 9) {
          return "";
        }
        int num = Integer.parseInt(name);
        if (num > m.groupCount()) {
          return "";
        }
        g = m.group(num);
      } else {
        g = m.group(name);
      }
      return g == null ? "" : g;
    } catch (IllegalArgumentException e) {
      return ""; // no group of that name
    }
  }

  private static boolean isNameChar(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
