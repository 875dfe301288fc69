/**
 * How infermon logs: to standard error, in one line per event, never showing a credential ({@link
 * dev.infermon.server.logging.WireLogFilter}, {@link dev.infermon.server.logging.Redaction}).
 */
package dev.infermon.server.logging;
