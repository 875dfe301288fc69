/**
 * The infermon process: the command line, configuration, and the wiring of every other module. This
 * is the only module that depends on all the others; no other module depends on it.
 */
package dev.infermon.server;
