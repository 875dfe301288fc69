package dev.infermon.itui;

import dev.infermon.simulator.FleetConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

final class DebugMain {
  public static void main(String[] a) throws Exception {
    Path dir = Files.createTempDirectory("dbg");
    FleetConfig fleet = FleetConfig.builder().seed(11).smProfilingFields(false).build();
    boolean both = a.length > 0;
    Harness h = both ? Harness.start(fleet, Duration.ofHours(1), 15, dir) : null;
    HistoryServer hs = HistoryServer.start(fleet, Duration.ofHours(1), 15, dir.resolve("history"));
    System.out.println("URL " + hs.baseUrl() + (h != null ? " harness " + h.baseUrl() : ""));
    Thread.sleep(600_000);
  }
}
