/** JMH benchmarks of the exposition parsers: throughput and allocation per sample. */
package dev.infermon.benchmarks.textparse;
