/**
 * The scrape side of the configuration, as in Prometheus's {@code config/config.go} and
 * prometheus/common's HTTP client config: {@link dev.infermon.config.scrape.GlobalConfig}, {@link
 * dev.infermon.config.scrape.ScrapeConfig} with its discovery configs (static, file, Kubernetes)
 * and {@link dev.infermon.config.scrape.HttpClientConfig}. Immutable records; defaults are named
 * constants ({@code GlobalConfig.DEFAULT}, {@code HttpClientConfig.DEFAULT}, ...).
 */
package dev.infermon.config.scrape;
