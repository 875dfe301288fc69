/**
 * The storage seams: how samples go in ({@link dev.infermon.storage.Appender}) and how series come
 * out ({@link dev.infermon.storage.Querier}). Interfaces only, plus combinators such as the fanout;
 * the embedded implementation lives in the {@code tsdb} module and test doubles in the test-jar's
 * conformance kit.
 *
 * <p>Time is in milliseconds since the epoch everywhere. Ranges are closed: {@code [mint, maxt]}.
 */
package dev.infermon.storage;
