/**
 * The remote-write 1.0 receiver: {@link dev.infermon.web.remotewrite.WriteRequestDecoder} reads a
 * snappy-compressed protobuf {@code WriteRequest} by hand with protobuf-java's {@code
 * CodedInputStream} (no generated code), and {@link
 * dev.infermon.web.remotewrite.RemoteWriteHandler} appends it as one transaction.
 */
package dev.infermon.web.remotewrite;
