/**
 * {@code infermon demo}: a simulated inference fleet, or replayed real captures ({@code --replay}),
 * on 127.0.0.1, its recent history backfilled through the scrape pipeline into the embedded TSDB,
 * and infermon serving and scraping it live.
 */
package dev.infermon.server.demo;
