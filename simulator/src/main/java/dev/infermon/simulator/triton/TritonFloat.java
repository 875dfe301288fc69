package dev.infermon.simulator.triton;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A value as Triton's metrics port writes it: integral values without a fraction ({@code 512},
 * {@code 1610236}, {@code 1700074049}) and fractions in their short decimal form ({@code 0.4875}),
 * as the tensorrtllm backend README's sample page and the pages quoted in
 * triton-inference-server/tensorrtllm_backend#49 and #667 show. Which serializer release writes
 * them is not named by those sources; 16 significant digits (a microsecond timestamp's) are kept
 * and larger magnitudes go to an exponent (a judgement: no source shows one). Stateless.
 */
final class TritonFloat {
  private static final int DIGITS = 16;

  private TritonFloat() {}

  static String format(double d) {
    if (Double.isNaN(d)) {
      return "Nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "+Inf" : "-Inf";
    }
    if (d == 0) {
      return "0";
    }
    BigDecimal v =
        new BigDecimal(d)
            .round(new MathContext(DIGITS, RoundingMode.HALF_EVEN))
            .stripTrailingZeros();
    int exponent = v.precision() - v.scale() - 1;
    if (exponent >= DIGITS || exponent < -5) {
      return v.unscaledValue() + "e" + (-v.scale());
    }
    return v.toPlainString();
  }
}
