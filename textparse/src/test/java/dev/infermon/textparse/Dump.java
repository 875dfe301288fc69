package dev.infermon.textparse;

import dev.infermon.model.labels.Labels;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * Writes what a parser reads as one line per entry: the form of the golden files. Values print in
 * their shortest round-tripping decimal, computed with BigDecimal so that the output does not
 * depend on the JDK's {@code Double.toString}.
 */
final class Dump {
  private Dump() {}

  /** Every entry up to the end or the first error, which ends the dump as an ERROR line. */
  static String of(Parser p) {
    StringBuilder sb = new StringBuilder();
    int families = 0;
    int samples = 0;
    try {
      for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
        sb.append(p.line()).append(' ');
        switch (e) {
          case HELP:
            sb.append("HELP ").append(p.familyName()).append(' ').append(quote(p.help()));
            break;
          case TYPE:
            families++;
            sb.append("TYPE ").append(p.familyName()).append(' ').append(p.type().exposedName());
            break;
          case UNIT:
            sb.append("UNIT ").append(p.familyName()).append(' ').append(quote(p.unit()));
            break;
          case COMMENT:
            sb.append("COMMENT ").append(quote(p.comment()));
            break;
          default:
            samples++;
            series(sb, p);
        }
        sb.append('\n');
      }
      sb.append("EOF\n");
    } catch (ParseException ex) {
      sb.append("ERROR ").append(ex.getMessage()).append('\n');
    }
    return "# " + typeLines(families) + ", " + samples + " samples\n" + sb;
  }

  private static String typeLines(int n) {
    return n + " TYPE lines";
  }

  private static void series(StringBuilder sb, Parser p) {
    labels(sb, p.labels(), true);
    sb.append(' ').append(number(p.value()));
    if (p.hasTimestamp()) {
      sb.append(" @").append(p.timestamp());
    }
    Optional<Exemplar> ex = p.exemplar();
    if (ex.isPresent()) {
      sb.append(" # ");
      labels(sb, ex.get().labels(), false);
      sb.append(' ').append(number(ex.get().value()));
      if (ex.get().hasTimestamp()) {
        sb.append(" @").append(ex.get().timestamp());
      }
    }
  }

  static void labels(StringBuilder sb, Labels labels, boolean withName) {
    if (withName) {
      sb.append(labels.metricName());
    }
    boolean open = false;
    for (int i = 0; i < labels.size(); i++) {
      if (labels.name(i).equals(Labels.METRIC_NAME)) {
        continue;
      }
      sb.append(open ? ',' : '{');
      open = true;
      sb.append(labels.name(i)).append('=');
      sb.append(quote(labels.value(i)));
    }
    if (open) {
      sb.append('}');
    } else if (!withName) {
      sb.append("{}");
    }
  }

  /** Double-quoted with backslash, quote, newline and control characters escaped; never cut. */
  static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c < 0x20 || c == 0x7F) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  /** The shortest decimal that parses back to d; NaN, +Inf, -Inf by name. */
  static String number(double d) {
    if (Double.isNaN(d)) {
      long bits = Double.doubleToRawLongBits(d);
      return bits == Double.doubleToRawLongBits(Numbers.NORMAL_NAN)
          ? "NaN"
          : "NaN(0x" + Long.toHexString(bits) + ")";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "+Inf" : "-Inf";
    }
    if (d == 0) {
      return (1 / d) < 0 ? "-0" : "0";
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    BigDecimal exact = new BigDecimal(d);
    for (int digits = 1; digits <= 17; digits++) {
      BigDecimal r = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
      if (r.doubleValue() == d) {
        return r.stripTrailingZeros().toString();
      }
    }
    return exact.toString();
  }
}
