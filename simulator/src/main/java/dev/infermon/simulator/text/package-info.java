/**
 * Text-format 0.0.4 primitives shared by the page writers: a line writer ({@link
 * dev.infermon.simulator.text.PromText}), Python's float formatting as prometheus_client writes it
 * ({@link dev.infermon.simulator.text.PyFloat}), the helpers that lay out Python families ({@link
 * dev.infermon.simulator.text.PythonFamilies}), and a classic histogram ({@link
 * dev.infermon.simulator.text.Histogram}). Not thread-safe; one writer per rendering.
 */
package dev.infermon.simulator.text;
