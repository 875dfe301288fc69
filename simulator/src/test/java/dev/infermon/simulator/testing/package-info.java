/**
 * What other modules borrow from the simulator's tests, shipped in the simulator test-jar (only
 * this package): {@link dev.infermon.simulator.testing.FleetScrape}, a simulated fleet scraped into
 * storage in simulated time.
 */
package dev.infermon.simulator.testing;
