package dev.infermon.llm.efficiency;

import java.util.OptionalDouble;

/**
 * One efficiency figure, or why it could not be computed: never a 0 standing in for "unknown".
 * Immutable.
 *
 * @param value the figure, when it could be computed
 * @param reason why it is absent; empty when the value is present
 */
public record Figure(OptionalDouble value, String reason) {
  /** Validates: exactly one of a finite value and a reason. */
  public Figure {
    if (value.isPresent() == !reason.isEmpty()) {
      throw new IllegalArgumentException("a figure has a value or a reason, not both or neither");
    }
    if (value.isPresent() && !Double.isFinite(value.getAsDouble())) {
      throw new IllegalArgumentException("a figure is finite, got " + value.getAsDouble());
    }
  }

  /** A computed figure. */
  public static Figure of(double value) {
    return new Figure(OptionalDouble.of(value), "");
  }

  /** A figure that could not be computed, and why. */
  public static Figure absent(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("an absent figure needs its reason");
    }
    return new Figure(OptionalDouble.empty(), reason);
  }

  /** Whether the value is present. */
  public boolean present() {
    return value.isPresent();
  }

  /** The value; only when {@link #present()}. */
  public double get() {
    return value.getAsDouble();
  }
}
