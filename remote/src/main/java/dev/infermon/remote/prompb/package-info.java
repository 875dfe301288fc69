/**
 * The remote-write 1.0 wire format: a protobuf {@code prometheus.WriteRequest} in the snappy block
 * format, written by hand with protobuf-java's {@code CodedOutputStream} (no generated classes, so
 * no generated code to keep in step and no per-sample objects).
 */
package dev.infermon.remote.prompb;
