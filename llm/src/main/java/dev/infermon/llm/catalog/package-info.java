/**
 * The engine catalog as data: each metric family of vLLM, SGLang and dcgm-exporter by release
 * (exposed name, type, unit, labels, buckets, condition, history, citation) and where each
 * canonical signal lives, loaded from {@code dev/infermon/llm/catalog/*.yaml} by {@link
 * dev.infermon.llm.catalog.CatalogLoader}. All types are immutable and thread-safe.
 */
package dev.infermon.llm.catalog;
