package dev.infermon.config.scrape;

import dev.infermon.config.value.Secret;

/** HTTP basic authentication ({@code basic_auth}); at most one of password and password_file. */
public record BasicAuth(
    String username, String usernameFile, Secret password, String passwordFile) {}
