package dev.infermon.config.scrape;

import dev.infermon.config.value.Secret;
import java.util.List;

/** Values of one header in {@code http_headers}: plain, secret, or read from files. */
public record HttpHeader(List<String> values, List<Secret> secrets, List<String> files) {}
