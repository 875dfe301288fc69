/**
 * infermon's configuration: one typed, strictly validated tree that is a superset of Prometheus's
 * {@code prometheus.yml}.
 *
 * <p>{@link dev.infermon.config.ConfigLoader} reads a file into a {@link
 * dev.infermon.config.Config} or throws a {@link dev.infermon.config.ConfigException} listing every
 * problem as {@code source:line:col: path: message}. Prometheus's sections are records in {@code
 * config.scrape} and {@code config.remote}, infermon's own in {@code config.app}; all are
 * immutable, with defaults as named constants and already resolved (a scrape config holds the
 * global interval when it sets none). Secrets are {@link dev.infermon.config.value.Secret}s and
 * print as {@code <secret>}. The keys of every mapping are declared once, in {@code ConfigSchema},
 * which the mapping code, the unknown-key check and the documentation test share.
 */
package dev.infermon.config;
