package dev.infermon.server.demo;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * What the demo scrapes, served on 127.0.0.1: the simulated fleet ({@link SimulatedTargets}) or
 * replayed captures ({@link ReplayedTargets}). The demo writes a scrape configuration from it,
 * backfills its history from {@link #replay}, then lets it follow the wall clock.
 *
 * <p>Threading: {@link #replay} runs on the starting thread before the live scrapes; afterwards the
 * pages are served from the implementation's own HTTP threads. Owns its servers and threads; {@link
 * #close()} stops them.
 */
interface DemoTargets extends AutoCloseable {
  /** What is served, for the progress line: "15 simulated targets". */
  String describe();

  /** A {@code prometheus.yml} scraping every target with its labels (jobs by kind). */
  String prometheusYaml(int scrapeIntervalSeconds);

  /** Every target's URL, in order. */
  List<String> urls();

  /** The Content-Type of the page at {@code url}. */
  String contentType(String url);

  /** The instant the pages have reached; history is replayed after it. */
  long nowMillis();

  /**
   * Steps the pages to {@code untilMillis} by {@code step}, handing each step's time and pages by
   * URL to {@code sink}; a target that is down at that step has no page (absent from the map).
   */
  void replay(long untilMillis, Duration step, BiConsumer<Long, Map<String, String>> sink);

  /** After the backfill: the pages follow the wall clock. */
  void goLive();

  /** The control port ({@code /-/inventory}). */
  int controlPort();

  /** The line of the banner that points at the control port. */
  String controlLine();

  /** One line per target: name, URL, labels. */
  void printTargets(PrintWriter out);

  /** Stops serving. Idempotent. */
  @Override
  void close();
}
