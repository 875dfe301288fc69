/**
 * The server side of one dashboard load: a simulated fleet's history on disk, infermon's HTTP
 * server over it in this process, and the requests the UI makes for one load, timed by CPU and
 * counted in evaluations and series selected.
 */
package dev.infermon.benchmarks.dashboard;
