package dev.infermon.config.app;

import java.time.Duration;

/** The {@code ui} section: the built-in web UI. */
public record UiConfig(boolean enabled, String title, Duration defaultRange) {
  public static final UiConfig DEFAULT = new UiConfig(true, "infermon", Duration.ofHours(1));
}
