package dev.infermon.storage;

/** Something that accepts samples. Thread-safe: appenders may be created from any thread. */
@FunctionalInterface
public interface Appendable {
  /** A new write transaction. */
  Appender appender();
}
