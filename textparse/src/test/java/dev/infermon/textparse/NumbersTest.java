package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * The allocation-free float parser gives exactly the double {@link Double#parseDouble} gives (both
 * are correctly rounded), and OpenMetrics timestamps convert to milliseconds exactly.
 */
class NumbersTest {
  private static double parse(String s) {
    Numbers n = new Numbers();
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    assertThat(n.parseFloat(b, 0, b.length)).as("parses %s", s).isTrue();
    return n.value;
  }

  private static boolean accepts(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return new Numbers().parseFloat(b, 0, b.length);
  }

  @Property(tries = 3000, shrinking = ShrinkingMode.OFF)
  void anyDoublePrintedByJavaParsesBackExactly(@ForAll double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return;
    }
    assertThat(Double.doubleToRawLongBits(parse(Double.toString(d))))
        .isEqualTo(Double.doubleToRawLongBits(d));
  }

  @Provide
  Arbitrary<String> decimals() {
    Arbitrary<String> digits = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(30);
    Arbitrary<String> fraction =
        Arbitraries.strings().numeric().ofMaxLength(25).map(f -> f.isEmpty() ? "" : "." + f);
    Arbitrary<String> exponent =
        Arbitraries.integers().between(-360, 360).map(e -> "e" + e).injectNull(0.4);
    return net.jqwik.api.Combinators.combine(
            Arbitraries.of("", "-", "+"), digits, fraction, exponent)
        .as((s, i, f, e) -> s + i + f + (e == null ? "" : e));
  }

  @Property(tries = 3000, shrinking = ShrinkingMode.OFF)
  void decimalStringsRoundLikeTheJdk(@ForAll("decimals") String s) {
    double expected = Double.parseDouble(s);
    if (Double.isInfinite(expected)) {
      assertThat(accepts(s)).as("%s overflows: a range error, as in Go", s).isFalse();
      return;
    }
    assertThat(Double.doubleToRawLongBits(parse(s)))
        .as("%s", s)
        .isEqualTo(Double.doubleToRawLongBits(expected));
  }

  @Example
  void hardCasesNearHalfwayAndSubnormals() {
    String[] cases = {
      "9007199254740993", // 2^53 + 1: exactly halfway, rounds to even
      "9007199254740995",
      "2.2250738585072011e-308", // the largest subnormal neighbourhood
      "4.9e-324",
      "2.4703282292062327e-324", // below half the smallest subnormal: 0
      "2.4703282292062328e-324",
      "1.7976931348623157e308",
      "0.1",
      "1.7624384237011464e+09",
      "123456789012345678901234567890",
      "7.038531e-26",
      "1e23",
      "8.98846567431158e307"
    };
    for (String s : cases) {
      assertThat(Double.doubleToRawLongBits(parse(s)))
          .as(s)
          .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(s)));
    }
  }

  @Example
  void specialValuesAndTheGrammar() {
    assertThat(parse("+Inf")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(parse("-inf")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(parse("Infinity")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(Double.doubleToRawLongBits(parse("NaN")))
        .isEqualTo(Double.doubleToRawLongBits(Numbers.NORMAL_NAN));
    assertThat(parse("-0")).isEqualTo(-0.0);
    assertThat(parse("1.")).isEqualTo(1.0);
    assertThat(parse(".5")).isEqualTo(0.5);
    for (String bad :
        new String[] {
          "", "+", "-", ".", "e5", "1e", "1e+", "1..2", "0x10", "1_0", "+NaN", "Inff", "in", " 1",
          "1 ", "1f", "1d", "--1"
        }) {
      assertThat(accepts(bad)).as("rejects %s", bad).isFalse();
    }
  }

  @Example
  void openMetricsTimestampsConvertExactly() {
    Numbers n = new Numbers();
    String[][] cases = {
      {"1.005", "1005"}, // float arithmetic would give 1004
      {"1762438423.7011464", "1762438423701"},
      {"-1.1", "-1100"},
      {"1.5e3", "1500000"},
      {"0.0000000001", "0"},
      {"000", "0"},
      {"12345678901234567890.1234567890", Long.toString(Long.MAX_VALUE)},
      {"-1e30", Long.toString(-Long.MAX_VALUE)}
    };
    for (String[] c : cases) {
      byte[] b = c[0].getBytes(StandardCharsets.US_ASCII);
      assertThat(n.parseSecondsTimestamp(b, 0, b.length)).as(c[0]).isTrue();
      assertThat(n.millis).as(c[0]).isEqualTo(Long.parseLong(c[1]));
    }
  }
}
