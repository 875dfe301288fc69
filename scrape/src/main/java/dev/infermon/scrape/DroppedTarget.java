package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;

/**
 * A target that relabeling dropped: {@code droppedTargets[]} of {@code /api/v1/targets}, whose only
 * field is {@code discoveredLabels}; the pool is kept for the API's {@code scrapePool} filter.
 */
public record DroppedTarget(Labels discoveredLabels, String scrapePool) {}
