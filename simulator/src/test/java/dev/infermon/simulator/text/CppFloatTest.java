package dev.infermon.simulator.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code std::ostream << double} as llama-server writes its values: six significant digits, no
 * trailing zeros, an exponent from 1e6 and below 1e-4. The first rows are values from public
 * llama-server pages (ggml-org/llama.cpp#13196, ikawrakow/ik_llama.cpp#695 threads).
 */
class CppFloatTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "143, 143",
    "8.168, 8.168",
    "2903.63, 2903.63",
    "2.3715123, 2.37151",
    "27.94268, 27.9427",
    "1, 1",
    "0, 0",
    "999999, 999999",
    "1000000, 1e+06",
    "1234567, 1.23457e+06",
    "33065.0, 33065",
    "0.0001, 0.0001",
    "0.00001234, 1.234e-05",
    "123456.7, 123457",
    "1e21, 1e+21",
    "-2.5, -2.5",
  })
  void formatsAsTheDefaultStreamDoes(double v, String expected) {
    assertThat(CppFloat.format(v)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"NaN, nan", "Infinity, inf", "-Infinity, -inf"})
  void nonFiniteValuesAreGlibcsWords(double v, String expected) {
    assertThat(CppFloat.format(v)).isEqualTo(expected);
  }
}
