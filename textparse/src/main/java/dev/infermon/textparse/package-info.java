/**
 * Streaming pull parsers for the Prometheus text format (0.0.4, and 1.0.0's quoted UTF-8 names) and
 * OpenMetrics 1.0, in the shape of Prometheus's {@code model/textparse}.
 *
 * <p>Start at {@link dev.infermon.textparse.Parsers}: it picks the format from a Content-Type (or
 * sniffs a file) and gives a {@link dev.infermon.textparse.ParserFactory}, whose {@link
 * dev.infermon.textparse.Parser}s read one page each. {@link dev.infermon.textparse.ParserOptions}
 * holds the limits and the {@link dev.infermon.textparse.Conformance} per format; {@link
 * dev.infermon.textparse.ParseException} is the only error bad input can cause; a {@link
 * dev.infermon.textparse.SymbolTable} shared across consecutive parses on one thread keeps Strings
 * free.
 *
 * <p>Parsers are single-threaded; factories, options and returned values are immutable.
 */
package dev.infermon.textparse;
