/**
 * The running process ({@link dev.infermon.server.runtime.Infermon}): components started in order
 * and stopped in reverse, configuration reload, own metrics, and the adapters that show scrape and
 * storage to the web module.
 */
package dev.infermon.server.runtime;
