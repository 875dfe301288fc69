/**
 * The sending side of the configuration: {@link dev.infermon.config.remote.RemoteWriteConfig},
 * {@link dev.infermon.config.remote.RemoteReadConfig}, {@link
 * dev.infermon.config.remote.AlertingConfig} and Prometheus's {@code tracing} section. Immutable
 * records with named defaults.
 */
package dev.infermon.config.remote;
