package dev.infermon.simulator.text;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats a double as prometheus_client's {@code floatToGoString} does: Python's shortest {@code
 * repr}, except that positive numbers with more than six integer digits switch to an exponent the
 * way Go does ({@code 3.675428e+06}, {@code 1.7624384230434499e+09}, {@code 1e+06}, even {@code
 * 1.0777853952e+010}). Infinities are {@code +Inf}/{@code -Inf}.
 */
public final class PyFloat {
  private PyFloat() {}

  /** The text prometheus_client writes for {@code d}. */
  public static String format(double d) {
    if (d == Double.POSITIVE_INFINITY) {
      return "+Inf";
    }
    if (d == Double.NEGATIVE_INFINITY) {
      return "-Inf";
    }
    if (Double.isNaN(d)) {
      return "NaN";
    }
    String s = repr(d);
    int dot = s.indexOf('.');
    if (d > 0 && dot > 6) {
      String mantissa = s.charAt(0) + "." + s.substring(1, dot) + s.substring(dot + 1);
      return stripZerosAndDots(mantissa) + "e+0" + (dot - 1);
    }
    return s;
  }

  /** Python's {@code repr(float)}: shortest round-trip digits, fixed between 1e-4 and 1e16. */
  static String repr(double d) {
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d) + ".0";
    }
    String[] digitsAndPoint = shortestDigits(d);
    String digits = digitsAndPoint[0];
    int decpt = Integer.parseInt(digitsAndPoint[1]); // value = 0.digits * 10^decpt
    String sign = d < 0 ? "-" : "";
    if (decpt > -4 && decpt <= 16) {
      StringBuilder sb = new StringBuilder(sign);
      if (decpt <= 0) {
        sb.append("0.");
        sb.append("0".repeat(-decpt));
        sb.append(digits);
      } else if (decpt >= digits.length()) {
        sb.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
      } else {
        sb.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
      }
      return sb.toString();
    }
    int exp = decpt - 1;
    StringBuilder sb = new StringBuilder(sign).append(digits.charAt(0));
    if (digits.length() > 1) {
      sb.append('.').append(digits, 1, digits.length());
    }
    sb.append('e').append(exp < 0 ? '-' : '+');
    int a = Math.abs(exp);
    if (a < 10) {
      sb.append('0');
    }
    return sb.append(a).toString();
  }

  /**
   * The shortest digits that read back as {@code d} and the decimal point's position. {@code
   * Double.toString} is shortest on newer JDKs but may carry a digit too many on 17, so shorter
   * roundings are tried until one no longer reads back.
   */
  private static String[] shortestDigits(double d) {
    String js = Double.toString(Math.abs(d));
    int e = js.indexOf('E');
    int exp = e < 0 ? 0 : Integer.parseInt(js.substring(e + 1));
    String mantissa = e < 0 ? js : js.substring(0, e);
    int dot = mantissa.indexOf('.');
    String raw = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
    int decpt = dot + exp;
    int lead = 0;
    while (lead < raw.length() - 1 && raw.charAt(lead) == '0') {
      lead++;
      decpt--;
    }
    String digits = stripTrailingZeros(raw.substring(lead));
    while (digits.length() > 1) {
      BigDecimal shorter =
          new BigDecimal(new BigInteger(digits), digits.length() - decpt)
              .round(new MathContext(digits.length() - 1, RoundingMode.HALF_EVEN));
      if (shorter.doubleValue() != Math.abs(d)) {
        break;
      }
      decpt = shorter.precision() - shorter.scale();
      digits = stripTrailingZeros(shorter.unscaledValue().toString());
    }
    return new String[] {digits, Integer.toString(decpt)};
  }

  private static String stripTrailingZeros(String s) {
    int end = s.length();
    while (end > 1 && s.charAt(end - 1) == '0') {
      end--;
    }
    return s.substring(0, end);
  }

  private static String stripZerosAndDots(String s) {
    int end = s.length();
    while (end > 0 && (s.charAt(end - 1) == '0' || s.charAt(end - 1) == '.')) {
      end--;
    }
    return s.substring(0, end);
  }
}
