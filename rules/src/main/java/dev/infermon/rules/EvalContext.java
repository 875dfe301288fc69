package dev.infermon.rules;

import dev.infermon.model.labels.Labels;

/** What a rule's evaluation needs from its manager. Immutable. */
record EvalContext(QueryFunction query, Labels externalLabels, String externalUrl) {}
