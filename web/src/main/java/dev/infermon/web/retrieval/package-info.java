/**
 * The narrow views the HTTP API has of the scrape side and the rule manager ({@link
 * dev.infermon.web.retrieval.TargetRetriever}, {@link dev.infermon.web.retrieval.RulesRetriever}),
 * with immutable value records shaped like Prometheus's JSON. The server adapts the real components
 * to them, so the web module depends on neither.
 */
package dev.infermon.web.retrieval;
