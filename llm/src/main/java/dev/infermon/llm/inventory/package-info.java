/**
 * The fleet inventory: per target the engine, its release range (from the catalog's signature
 * families), enabled features and label sets, read from what is stored ({@link
 * dev.infermon.llm.inventory.StoredInventory}, through a QueryBackend) or from a live scrape on
 * demand ({@link dev.infermon.llm.inventory.LiveScrape}). Values are immutable; the readers are
 * stateless and thread-safe.
 */
package dev.infermon.llm.inventory;
