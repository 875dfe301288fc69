package dev.infermon.server.runtime;

import dev.infermon.storage.Storage;

/**
 * Work done once the storage is open and before rules, scraping and discovery start: the demo
 * writes the fleet's history there, so the first rule evaluation and the first live scrape find it.
 * Runs on the starting thread; the HTTP server already answers {@code /-/healthy} meanwhile, the
 * API not yet.
 */
@FunctionalInterface
public interface BeforeScrape {
  /** Does nothing. */
  BeforeScrape NONE = storage -> {};

  /**
   * Runs with the storage that scrapes append to.
   *
   * @throws java.io.IOException to abort start-up; infermon stops what it started
   */
  void run(Storage storage) throws java.io.IOException;
}
