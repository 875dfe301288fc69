/**
 * The fleet inventory: per target the engine, its release range (from the catalog's signature
 * families), enabled features and label sets, read from what is stored ({@link
 * dev.infermon.llm.inventory.StoredInventory}, through a QueryBackend) or from a live scrape on
 * demand ({@link dev.infermon.llm.inventory.LiveScrape}). {@link
 * dev.infermon.llm.inventory.InventoryService} is the one stored inventory of a process, cached per
 * time and look-back window, that the dashboard, diagnosis and lint share. Values are immutable;
 * the readers and the service are thread-safe.
 */
package dev.infermon.llm.inventory;
