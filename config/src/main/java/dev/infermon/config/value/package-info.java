/**
 * Value types of the configuration: {@link dev.infermon.config.value.Secret} (prints as {@code
 * <secret>}), {@link dev.infermon.config.value.PromDuration} (Prometheus's duration syntax) and
 * {@link dev.infermon.config.value.ByteSize} (sizes with base-2 units). All immutable and
 * thread-safe.
 */
package dev.infermon.config.value;
