/** Benchmarks of the remote-write receiver: decoding requests as Prometheus sends them. */
package dev.infermon.benchmarks.remote;
