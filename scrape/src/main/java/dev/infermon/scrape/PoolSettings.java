package dev.infermon.scrape;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.model.relabel.RelabelConfig;
import java.util.List;

/**
 * What a scrape loop needs from its scrape config, resolved once per pool. Immutable.
 *
 * <p>Every limit is Prometheus's: 0 (the default) means no limit.
 *
 * @param bodySizeLimit the largest decompressed body accepted, in bytes
 * @param sampleLimit the most samples per scrape after metric relabeling
 * @param labelLimit the most labels per series after metric relabeling
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
