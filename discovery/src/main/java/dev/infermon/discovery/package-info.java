/**
 * Target discovery, as Prometheus's {@code discovery} package: the {@link
 * dev.infermon.discovery.Discoverer} seam (a provider sends changed {@link
 * dev.infermon.discovery.TargetGroup}s to a {@link dev.infermon.discovery.TargetSink}) and the
 * {@link dev.infermon.discovery.DiscoveryManager}, which runs the providers of every scrape pool
 * and sends coalesced full snapshots to the scrape side. Providers live in sub-packages: {@code
 * staticsd}, {@code file}, {@code kubernetes} and {@code inference}; {@link
 * dev.infermon.discovery.Providers} builds them from a scrape config.
 */
package dev.infermon.discovery;
