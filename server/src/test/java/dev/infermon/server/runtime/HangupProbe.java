package dev.infermon.server.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A process of its own for {@link SignalsTest}: installs the SIGHUP handler, prints whether it
 * took, then waits up to 30 s for one SIGHUP and prints {@code hangup} when it arrives.
 */
public final class HangupProbe {
  private HangupProbe() {}

  public static void main(String[] args) throws InterruptedException {
    CountDownLatch hangup = new CountDownLatch(1);
    boolean installed = Signals.onHangup(hangup::countDown);
    System.out.println("installed=" + installed);
    System.out.flush();
    if (installed && hangup.await(30, TimeUnit.SECONDS)) {
      System.out.println("hangup");
    }
  }
}
