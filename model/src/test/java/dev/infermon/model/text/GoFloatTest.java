package dev.infermon.model.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Go's float formatting, as {@code strconv.FormatFloat(v, 'f'|'e', -1, 64)} and {@code
 * fmt.Sprintf("%g")} print it (expected strings from Go 1.21's strconv), including the values whose
 * {@link Double#toString} on Java 17 is not the shortest (JDK-4511638).
 */
class GoFloatTest {
  record Case(double v, String f, String e, String g) {}

  static Stream<Case> cases() {
    return Stream.of(
        new Case(0, "0", "0e+00", "0"),
        new Case(-0.0, "-0", "-0e+00", "-0"),
        new Case(1, "1", "1e+00", "1"),
        new Case(-1.5, "-1.5", "-1.5e+00", "-1.5"),
        new Case(0.1, "0.1", "1e-01", "0.1"),
        new Case(0.0001, "0.0001", "1e-04", "0.0001"),
        new Case(0.00001, "0.00001", "1e-05", "1e-05"),
        new Case(
            6.000000000000001e-08,
            "0.00000006000000000000001",
            "6.000000000000001e-08",
            "6.000000000000001e-08"),
        new Case(100000, "100000", "1e+05", "100000"),
        new Case(1e6, "1000000", "1e+06", "1e+06"),
        new Case(123456789, "123456789", "1.23456789e+08", "1.23456789e+08"),
        new Case(1e20, "100000000000000000000", "1e+20", "1e+20"),
        new Case(1e21, "1000000000000000000000", "1e+21", "1e+21"),
        // Java 17 prints these with a digit too many (9.999999999999999E22, 1.9999999999999998E23,
        // 8.409999999999999E21, 6.8479835487449702E18); Go prints the shortest.
        new Case(1e23, "100000000000000000000000", "1e+23", "1e+23"),
        new Case(2e23, "200000000000000000000000", "2e+23", "2e+23"),
        new Case(8.41e21, "8410000000000000000000", "8.41e+21", "8.41e+21"),
        new Case(
            6.84798354874497e18,
            "6847983548744970000",
            "6.84798354874497e+18",
            "6.84798354874497e+18"),
        new Case(Double.MIN_VALUE, null, "5e-324", "5e-324"),
        // Values as Prometheus 2.42's HTTP API printed them for the same queries
        // (docs/http-api.md).
        new Case(2, "2", "2e+00", "2"),
        new Case(1e-7, "0.0000001", "1e-07", "1e-07"),
        new Case(0.30000000000000004, "0.30000000000000004", null, "0.30000000000000004"),
        new Case(150, "150", "1.5e+02", "150"),
        new Case(-2.25, "-2.25", "-2.25e+00", "-2.25"),
        new Case(282879384806159000d, "282879384806159000", "2.82879384806159e+17", null),
        new Case(1.5e-7, null, "1.5e-07", null),
        new Case(123456, "123456", "1.23456e+05", "123456"),
        new Case(-2, "-2", "-2e+00", "-2"),
        new Case(1e15, "1000000000000000", "1e+15", "1e+15"),
        new Case(-999999999999999d, "-999999999999999", "-9.99999999999999e+14", null),
        new Case(Double.NaN, "NaN", "NaN", "NaN"),
        new Case(Double.POSITIVE_INFINITY, "+Inf", "+Inf", "+Inf"),
        new Case(Double.NEGATIVE_INFINITY, "-Inf", "-Inf", "-Inf"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void formatsAsGoDoes(Case c) {
    if (c.f() != null) {
      assertThat(GoFloat.formatF(c.v())).isEqualTo(c.f());
    }
    if (c.e() != null) {
      assertThat(GoFloat.formatE(c.v())).isEqualTo(c.e());
    }
    if (c.g() != null) {
      assertThat(GoFloat.formatG(c.v())).isEqualTo(c.g());
    }
  }

  @Property(tries = 500)
  void formatFReadsBackExactlyWithoutAnExponent(@ForAll double v) {
    String s = GoFloat.formatF(v);
    assertThat(s).doesNotContain("E").doesNotContain("e");
    double back =
        s.equals("+Inf")
            ? Double.POSITIVE_INFINITY
            : s.equals("-Inf") ? Double.NEGATIVE_INFINITY : Double.parseDouble(s);
    assertThat(Double.doubleToLongBits(back)).isEqualTo(Double.doubleToLongBits(v));
  }

  @Property(tries = 2000)
  void shortestReadsBackAndNoShorterDoes(@ForAll double v) {
    if (!Double.isFinite(v) || v == 0) {
      return;
    }
    java.math.BigDecimal d = GoFloat.shortest(v);
    assertThat(d.doubleValue()).isEqualTo(v);
    if (d.precision() > 1) {
      java.math.BigDecimal shorter =
          new java.math.BigDecimal(v)
              .round(
                  new java.math.MathContext(d.precision() - 1, java.math.RoundingMode.HALF_EVEN));
      assertThat(shorter.doubleValue()).isNotEqualTo(v);
    }
  }

  @org.junit.jupiter.api.Test
  void shortestRefusesWhatHasNoDigits() {
    assertThatThrownBy(() -> GoFloat.shortest(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NaN");
  }
}
