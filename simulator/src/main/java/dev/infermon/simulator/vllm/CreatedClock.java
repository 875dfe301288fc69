package dev.infermon.simulator.vllm;

/**
 * Creation timestamps a few microseconds apart, as the real server registers its metrics one after
 * another at start-up; they move only when the server restarts.
 */
final class CreatedClock {
  private double next;

  CreatedClock(double startEpoch) {
    this.next = startEpoch + 4.3;
  }

  double next() {
    next += 0.0000251;
    return next;
  }
}
