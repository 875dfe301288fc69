package dev.infermon.config.remote;

import dev.infermon.config.scrape.TlsConfig;
import java.time.Duration;
import java.util.Map;

/**
 * Prometheus's {@code tracing} section (OTLP trace export). Accepted and typed so that existing
 * files load; infermon does not export traces yet and warns when it is set.
 */
public record TracingConfig(
    String clientType,
    String endpoint,
    double samplingFraction,
    boolean insecure,
    TlsConfig tlsConfig,
    Map<String, String> headers,
    String compression,
    Duration timeout) {}
