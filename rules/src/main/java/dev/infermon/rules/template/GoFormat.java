package dev.infermon.rules.template;

import dev.infermon.model.text.GoQuote;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Go's {@code fmt} and {@code strconv} formatting where templates depend on it: {@code %v} of a
 * float is the shortest {@code %g} with an exponent from 1e+06 on; {@code %.4g} trims trailing
 * zeros; rounding is on the exact binary value, halves to even. Stateless.
 */
final class GoFormat {
  private GoFormat() {}

  /** Decimal digits (no leading or trailing zeros) with the decimal point after {@code dp}. */
  private record Digits(boolean neg, String d, int dp) {
    int nd() {
      return d.length();
    }
  }

  /** {@code strconv.FormatFloat(v, fmt, prec, 64)} for {@code fmt} in e, f, g; prec -1 shortest. */
  static String formatFloat(double v, char fmt, int prec) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    boolean neg = v < 0 || (v == 0 && 1 / v < 0);
    boolean shortest = prec < 0;
    Digits digs;
    switch (fmt) {
      case 'e':
        digs = shortest ? shortest(v, neg) : rounded(v, neg, new MathContext(prec + 1));
        if (shortest) {
          prec = Math.max(digs.nd() - 1, 0);
        }
        return fmtE(digs, prec);
      case 'f':
        if (shortest) {
          digs = shortest(v, neg);
          return fmtF(digs, Math.max(digs.nd() - digs.dp(), 0));
        }
        return fmtFixed(v, neg, prec);
      default:
        if (prec == 0) {
          prec = 1;
        }
        digs = shortest ? shortest(v, neg) : rounded(v, neg, new MathContext(prec));
        if (shortest) {
          prec = digs.nd();
        }
        int eprec = prec;
        if (eprec > digs.nd() && digs.nd() >= digs.dp()) {
          eprec = digs.nd();
        }
        if (shortest) {
          eprec = 6;
        }
        int exp = digs.dp() - 1;
        if (exp < -4 || exp >= eprec) {
          if (prec > digs.nd()) {
            prec = digs.nd();
          }
          return fmtE(digs, Math.max(prec - 1, 0));
        }
        if (prec > digs.dp()) {
          prec = digs.nd();
        }
        return fmtF(digs, Math.max(prec - digs.dp(), 0));
    }
  }

  private static Digits shortest(double v, boolean neg) {
    if (v == 0) {
      return new Digits(neg, "", 0);
    }
    BigDecimal exact = new BigDecimal(Math.abs(v));
    for (int p = 1; p <= 17; p++) {
      BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (r.doubleValue() == Math.abs(v)) {
        return digits(neg, r);
      }
    }
    return digits(neg, exact.round(new MathContext(17, RoundingMode.HALF_EVEN)));
  }

  private static Digits rounded(double v, boolean neg, MathContext mc) {
    if (v == 0) {
      return new Digits(neg, "", 0);
    }
    BigDecimal r =
        new BigDecimal(Math.abs(v))
            .round(new MathContext(mc.getPrecision(), RoundingMode.HALF_EVEN));
    return digits(neg, r);
  }

  private static Digits digits(boolean neg, BigDecimal r) {
    BigDecimal s = r.stripTrailingZeros();
    String d = s.unscaledValue().toString();
    int dp = d.length() - s.scale();
    return new Digits(neg, d, dp);
  }

  private static String fmtE(Digits digs, int prec) {
    StringBuilder sb = new StringBuilder();
    if (digs.neg()) {
      sb.append('-');
    }
    sb.append(digs.nd() == 0 ? '0' : digs.d().charAt(0));
    if (prec > 0) {
      sb.append('.');
      for (int k = 1; k <= prec; k++) {
        sb.append(k < digs.nd() ? digs.d().charAt(k) : '0');
      }
    }
    sb.append('e');
    int exp = digs.nd() == 0 ? 0 : digs.dp() - 1;
    sb.append(exp < 0 ? '-' : '+');
    exp = Math.abs(exp);
    if (exp < 10) {
      sb.append('0');
    }
    return sb.append(exp).toString();
  }

  private static String fmtF(Digits digs, int prec) {
    StringBuilder sb = new StringBuilder();
    if (digs.neg()) {
      sb.append('-');
    }
    if (digs.dp() > 0) {
      for (int k = 0; k < digs.dp(); k++) {
        sb.append(k < digs.nd() ? digs.d().charAt(k) : '0');
      }
    } else {
      sb.append('0');
    }
    if (prec > 0) {
      sb.append('.');
      for (int k = 1; k <= prec; k++) {
        int j = digs.dp() + k - 1;
        sb.append(j >= 0 && j < digs.nd() ? digs.d().charAt(j) : '0');
      }
    }
    return sb.toString();
  }

  private static String fmtFixed(double v, boolean neg, int prec) {
    String s = new BigDecimal(Math.abs(v)).setScale(prec, RoundingMode.HALF_EVEN).toPlainString();
    return neg ? "-" + s : s;
  }

  /** {@code fmt.Sprint(v)} of one value. */
  static String sprint(Object v) {
    if (v == null) {
      return "<nil>";
    }
    if (v instanceof Double) {
      return formatFloat((Double) v, 'g', -1);
    }
    if (v instanceof Map) {
      StringBuilder sb = new StringBuilder("map[");
      boolean first = true;
      for (Map.Entry<?, ?> e : new TreeMap<>((Map<?, ?>) v).entrySet()) {
        if (!first) {
          sb.append(' ');
        }
        first = false;
        sb.append(sprint(e.getKey())).append(':').append(sprint(e.getValue()));
      }
      return sb.append(']').toString();
    }
    if (v instanceof List) {
      StringBuilder sb = new StringBuilder("[");
      List<?> l = (List<?>) v;
      for (int k = 0; k < l.size(); k++) {
        if (k > 0) {
          sb.append(' ');
        }
        sb.append(sprint(l.get(k)));
      }
      return sb.append(']').toString();
    }
    return v.toString();
  }

  /** {@code fmt.Sprint(args...)}: spaces between operands when neither side is a string. */
  static String sprintAll(List<Object> args) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < args.size(); k++) {
      Object a = args.get(k);
      if (k > 0 && !(a instanceof String) && !(args.get(k - 1) instanceof String)) {
        sb.append(' ');
      }
      sb.append(sprint(a));
    }
    return sb.toString();
  }

  /** {@code fmt.Sprintf} for the verbs alert templates use: v s d f F e E g G q x X t %. */
  static String sprintf(String format, List<Object> args) {
    StringBuilder sb = new StringBuilder();
    int argi = 0;
    for (int k = 0; k < format.length(); k++) {
      char c = format.charAt(k);
      if (c != '%') {
        sb.append(c);
        continue;
      }
      k++;
      if (k >= format.length()) {
        sb.append("%!(NOVERB)");
        break;
      }
      boolean minus = false;
      boolean plus = false;
      boolean zero = false;
      boolean space = false;
      for (; k < format.length(); k++) {
        char f = format.charAt(k);
        if (f == '-') {
          minus = true;
        } else if (f == '+') {
          plus = true;
        } else if (f == '0') {
          zero = true;
        } else if (f == ' ') {
          space = true;
        } else if (f != '#') {
          break;
        }
      }
      int width = -1;
      int start = k;
      while (k < format.length() && Character.isDigit(format.charAt(k))) {
        k++;
      }
      if (k > start) {
        width = Integer.parseInt(format.substring(start, k));
      }
      int prec = -1;
      if (k < format.length() && format.charAt(k) == '.') {
        k++;
        start = k;
        while (k < format.length() && Character.isDigit(format.charAt(k))) {
          k++;
        }
        prec = k > start ? Integer.parseInt(format.substring(start, k)) : 0;
      }
      if (k >= format.length()) {
        sb.append("%!(NOVERB)");
        break;
      }
      char verb = format.charAt(k);
      if (verb == '%') {
        sb.append('%');
        continue;
      }
      if (argi >= args.size()) {
        sb.append("%!").append(verb).append("(MISSING)");
        continue;
      }
      Object a = args.get(argi++);
      String s = formatOne(verb, a, prec, plus, space);
      if (width > s.length()) {
        String pad = " ".repeat(width - s.length());
        if (minus) {
          s = s + pad;
        } else if (zero && (a instanceof Double || a instanceof Long) && verb != 's') {
          String sign = s.startsWith("-") || s.startsWith("+") ? s.substring(0, 1) : "";
          s = sign + "0".repeat(width - s.length()) + s.substring(sign.length());
        } else {
          s = pad + s;
        }
      }
      sb.append(s);
    }
    if (argi < args.size()) {
      sb.append("%!(EXTRA ");
      for (int k = argi; k < args.size(); k++) {
        if (k > argi) {
          sb.append(", ");
        }
        Object a = args.get(k);
        sb.append(typeName(a)).append('=').append(sprint(a));
      }
      sb.append(')');
    }
    return sb.toString();
  }

  private static String formatOne(char verb, Object a, int prec, boolean plus, boolean space) {
    String s;
    switch (verb) {
      case 'v':
        s = a instanceof Double && prec >= 0 ? formatFloat((Double) a, 'g', prec) : sprint(a);
        break;
      case 's':
        s = a instanceof String ? (String) a : sprint(a);
        if (prec >= 0 && s.length() > prec) {
          s = s.substring(0, prec);
        }
        return s;
      case 'q':
        return a instanceof String ? GoQuote.quote((String) a) : bad(verb, a);
      case 't':
        return a instanceof Boolean ? a.toString() : bad(verb, a);
      case 'd':
        if (!(a instanceof Long)) {
          return bad(verb, a);
        }
        s = a.toString();
        break;
      case 'x':
      case 'X':
        if (a instanceof Long) {
          s = Long.toHexString((Long) a);
        } else if (a instanceof String) {
          StringBuilder h = new StringBuilder();
          for (byte b : ((String) a).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h.append(String.format("%02x", b & 0xff));
          }
          s = h.toString();
        } else {
          return bad(verb, a);
        }
        return verb == 'X' ? s.toUpperCase(java.util.Locale.ROOT) : s;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
        {
          Double d = a instanceof Double ? (Double) a : null;
          if (d == null) {
            return bad(verb, a);
          }
          char f = Character.toLowerCase(verb) == 'f' ? 'f' : Character.toLowerCase(verb);
          int p = prec >= 0 ? prec : (f == 'g' ? -1 : 6);
          s = formatFloat(d, f, p);
          if (Character.isUpperCase(verb) && verb != 'F') {
            s = s.toUpperCase(java.util.Locale.ROOT);
          }
          break;
        }
      default:
        return bad(verb, a);
    }
    if (plus && !s.startsWith("-") && !s.startsWith("+") && (a instanceof Number)) {
      s = "+" + s;
    } else if (space && !s.startsWith("-") && !s.startsWith("+") && (a instanceof Number)) {
      s = " " + s;
    }
    return s;
  }

  private static String bad(char verb, Object a) {
    return "%!" + verb + "(" + typeName(a) + "=" + sprint(a) + ")";
  }

  /** Go's name for the type a template value would have. */
  static String typeName(Object a) {
    if (a == null) {
      return "<nil>";
    }
    if (a instanceof Double) {
      return "float64";
    }
    if (a instanceof Long) {
      return "int";
    }
    if (a instanceof String) {
      return "string";
    }
    if (a instanceof Boolean) {
      return "bool";
    }
    if (a instanceof QuerySample) {
      return "*template.sample";
    }
    if (a instanceof List) {
      return "template.queryResult";
    }
    if (a instanceof Map) {
      return "map[string]string";
    }
    if (a instanceof TemplateData) {
      return ((TemplateData) a).typeName();
    }
    return a.getClass().getSimpleName();
  }
}
