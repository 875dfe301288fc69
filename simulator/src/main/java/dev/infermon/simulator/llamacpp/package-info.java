/**
 * llama.cpp's llama-server as the simulator exposes it (the {@code /metrics} handler after #16818,
 * {@code --metrics} on): what a server counts ({@link
 * dev.infermon.simulator.llamacpp.LlamacppMetrics}) and its page, unlabelled {@code llamacpp:}
 * families with values formatted as C++ streams write doubles ({@link
 * dev.infermon.simulator.llamacpp.LlamacppPage}). Not thread-safe.
 */
package dev.infermon.simulator.llamacpp;
