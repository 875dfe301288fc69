/** Benchmarks of the simulated fleet: simulated time per second of CPU, and page rendering. */
package dev.infermon.benchmarks.simulator;
