/**
 * The remote-write 1.0 sender: one {@link dev.infermon.remote.write.QueueManager} per {@code
 * remote_write} endpoint, fed by the storage fanout with committed samples; shards by series hash,
 * batches, snappy-compressed protobuf, retries with backoff, metadata, and its own counters ({@link
 * dev.infermon.remote.write.QueueStats}).
 */
package dev.infermon.remote.write;
