package dev.infermon.itui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A fleet's history stored in a directory by the benchmarks module's {@code FleetHistory} ({@code
 * DashboardLoadMain}): a TSDB in {@code data/}, compacted and closed, and {@code
 * history.properties}, what was built and when it ends. Read here from the file, since it-ui does
 * not depend on the benchmarks module (nothing does).
 */
final class StoredHistory {
  static final String MARKER = "history.properties";

  final int pods;
  final int hours;
  final int scrapeSeconds;
  final long endMs;
  final long samples;

  private StoredHistory(int pods, int hours, int scrapeSeconds, long endMs, long samples) {
    this.pods = pods;
    this.hours = hours;
    this.scrapeSeconds = scrapeSeconds;
    this.endMs = endMs;
    this.samples = samples;
  }

  /** The history in {@code dir}; fails when {@code dir} holds none. */
  static StoredHistory read(Path dir) throws IOException {
    Path marker = dir.resolve(MARKER);
    if (!Files.isRegularFile(marker) || !Files.isDirectory(dir.resolve("data"))) {
      throw new IllegalArgumentException(
          dir
              + " holds no stored history ("
              + MARKER
              + " and data/, DashboardLoadMain builds one)");
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(marker)) {
      p.load(in);
    }
    return new StoredHistory(
        Integer.parseInt(p.getProperty("pods")),
        Integer.parseInt(p.getProperty("hours")),
        Integer.parseInt(p.getProperty("scrapeSeconds")),
        Long.parseLong(p.getProperty("endMs")),
        Long.parseLong(p.getProperty("samples")));
  }

  /**
   * Copies {@code from} (a directory tree of regular files) into {@code to}, which must not exist:
   * opening a TSDB writes into its directory (lock, log segment, compaction), and the stored
   * history must stay as it was built for the next run.
   */
  static long copyTree(Path from, Path to) throws IOException {
    long[] bytes = {0};
    try (Stream<Path> all = Files.walk(from)) {
      all.forEach(
          p -> {
            Path target = to.resolve(from.relativize(p).toString());
            try {
              if (Files.isDirectory(p)) {
                Files.createDirectories(target);
              } else {
                Files.copy(p, target);
                bytes[0] += Files.size(target);
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return bytes[0];
  }
}
