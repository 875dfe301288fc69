/**
 * The storage seams: how samples go in ({@link dev.infermon.storage.Appender}) and how series come
 * out ({@link dev.infermon.storage.Querier}). Interfaces only, plus combinators such as the fanout;
 * the embedded implementation lives in the {@code tsdb} module, and the test-jar holds the
 * conformance kit every implementation runs and a simple in-memory storage for other modules'
 * tests.
 *
 * <p>Time is in milliseconds since the epoch everywhere. Ranges are closed: {@code [mint, maxt]}.
 */
package dev.infermon.storage;
