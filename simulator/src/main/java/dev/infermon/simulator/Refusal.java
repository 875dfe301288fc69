package dev.infermon.simulator;

/**
 * An endpoint's answer in place of a page, for good: a server whose metrics are switched off.
 *
 * @param status the HTTP status
 * @param contentType its Content-Type
 * @param body the body
 */
public record Refusal(int status, String contentType, String body) {}
