package dev.infermon.web.retrieval;

import dev.infermon.model.labels.Labels;

/** A target relabeling dropped ({@code droppedTargets[]}): only its discovered labels. */
public record DroppedTarget(Labels discoveredLabels) {}
