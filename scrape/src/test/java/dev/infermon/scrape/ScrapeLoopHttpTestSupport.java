package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;

/** Helpers shared by the scrape tests. */
final class ScrapeLoopHttpTestSupport {
  private ScrapeLoopHttpTestSupport() {}

  /** True for the report series a loop writes about itself. */
  static boolean isReport(Labels l) {
    return Arrays.asList(ScrapeLoop.REPORT_NAMES).contains(l.metricName());
  }
}
