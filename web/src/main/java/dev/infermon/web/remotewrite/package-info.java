/**
 * The remote-write 1.0 receiver: {@link dev.infermon.web.remotewrite.WriteRequestHeaders} checks
 * the headers the specification requires (415 otherwise, and for remote write 2.0, which is not
 * implemented), {@link dev.infermon.web.remotewrite.WriteRequestDecoder} reads a snappy-compressed
 * protobuf {@code WriteRequest} by hand with protobuf-java's {@code CodedInputStream} (no generated
 * code), and {@link dev.infermon.web.remotewrite.RemoteWriteHandler} appends it as one transaction.
 */
package dev.infermon.web.remotewrite;
