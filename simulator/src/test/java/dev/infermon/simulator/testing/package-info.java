/**
 * What other modules borrow from the simulator's tests, shipped in the simulator test-jar (this
 * package and the {@code captures/} resources): {@link dev.infermon.simulator.testing.FleetScrape},
 * a simulated fleet scraped into storage in simulated time; {@link
 * dev.infermon.simulator.testing.Captures}, the real captures with their provenance; {@link
 * dev.infermon.simulator.testing.ReplayScrape}, replayed captures scraped into storage.
 */
package dev.infermon.simulator.testing;
