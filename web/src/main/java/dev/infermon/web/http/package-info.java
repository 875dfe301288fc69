/**
 * The small HTTP layer over Jetty 12's core API (no servlets): a {@link
 * dev.infermon.web.http.Router} of blocking {@link dev.infermon.web.http.Route}s, each given an
 * {@link dev.infermon.web.http.Exchange} that holds the request and collects the response, and the
 * {@link dev.infermon.web.http.JettyHandler} that authenticates, dispatches, counts and writes.
 */
package dev.infermon.web.http;
