/**
 * JMH benchmarks and plain programs that time by thread CPU. Build with {@code ./mvnw -pl
 * benchmarks -am package -DskipTests}; run {@code java -jar benchmarks/target/benchmarks.jar} for
 * JMH, {@code java -cp benchmarks/target/benchmarks.jar <class>} for a program. docs/benchmarks.md
 * holds the current figure of each, with its command.
 */
package dev.infermon.benchmarks;
