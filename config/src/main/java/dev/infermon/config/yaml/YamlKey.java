package dev.infermon.config.yaml;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How {@link YamlPrinter} names a record component. Without it, the component's name converted to
 * snake_case is the key ({@code scrapeInterval} is {@code scrape_interval}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface YamlKey {
  /** The key, when snake_case of the component name is not it. */
  String value() default "";

  /** Print the component's own keys in the enclosing mapping (Prometheus's {@code ,inline}). */
  boolean inline() default false;

  /** Not part of the YAML form (derived or informational). */
  boolean skip() default false;

  /**
   * The whole value is a credential: printed as {@code <secret>} when redacting, as a {@code
   * Secret} is (a webhook's URL, whose path often is its token).
   */
  boolean secret() default false;
}
