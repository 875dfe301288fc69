package dev.infermon.simulator.replay;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test sets, so a live server renders the instants the test asks for. */
final class TestClock extends Clock {
  private final AtomicLong millis;

  TestClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  void set(long epochMillis) {
    millis.set(epochMillis);
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("UTC only");
  }
}
