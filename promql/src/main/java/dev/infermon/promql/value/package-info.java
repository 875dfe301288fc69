/**
 * Query results as plain immutable values: {@link dev.infermon.promql.value.Scalar}, {@link
 * dev.infermon.promql.value.StringValue}, {@link dev.infermon.promql.value.Vector} of {@link
 * dev.infermon.promql.value.Sample}s and {@link dev.infermon.promql.value.Matrix} of {@link
 * dev.infermon.promql.value.TimeSeries}, plus the non-fatal {@link
 * dev.infermon.promql.value.Annotations} that travel beside them.
 *
 * <p>These types are shared by the embedded engine and by any remote query backend, so they carry
 * no engine internals. All are immutable and thread-safe. Times are milliseconds since the epoch.
 */
package dev.infermon.promql.value;
