/**
 * JMH benchmarks. Run with {@code ./mvnw -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar}; figures and exact commands go to docs/benchmarks.md.
 */
package dev.infermon.benchmarks;
