package dev.infermon.scrape;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.model.relabel.RelabelConfig;
import java.util.List;

/**
 * What a scrape loop needs from its scrape config, resolved once per pool. Immutable.
 *
 * @param bodySizeLimit the largest decompressed body accepted, in bytes; 0 means the parser's
 *     default ceiling
 * @param sampleLimit the most samples per scrape after metric relabeling; 0 means no limit
 */
record PoolSettings(
    String jobName,
    boolean honorLabels,
    boolean honorTimestamps,
    long bodySizeLimit,
    long sampleLimit,
    long labelLimit,
    long labelNameLengthLimit,
    long labelValueLengthLimit,
    List<RelabelConfig> metricRelabelConfigs,
    boolean enableCompression) {

  static PoolSettings of(ScrapeConfig c) {
    return new PoolSettings(
        c.jobName(),
        c.honorLabels(),
        c.honorTimestamps(),
        c.bodySizeLimit().bytes(),
        c.sampleLimit(),
        c.labelLimit(),
        c.labelNameLengthLimit(),
        c.labelValueLengthLimit(),
        List.copyOf(c.metricRelabelConfigs()),
        c.enableCompression());
  }
}
