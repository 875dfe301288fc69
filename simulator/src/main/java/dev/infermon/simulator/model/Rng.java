package dev.infermon.simulator.model;

import java.util.SplittableRandom;

/**
 * A seeded random source with the distributions the model needs. {@link SplittableRandom}'s
 * algorithm is specified, so the same seed gives the same sequence on every JVM: simulated pages
 * reproduce exactly. Not thread-safe.
 */
public final class Rng {
  private final SplittableRandom random;

  /** A source seeded with {@code seed}. */
  public Rng(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** A deterministic seed derived from a parent seed and a name (pod, model, node). */
  public static long derive(long seed, String name) {
    long h = seed ^ 0x9E3779B97F4A7C15L;
    for (int i = 0; i < name.length(); i++) {
      h = mix(h + name.charAt(i));
    }
    return mix(h);
  }

  /**
   * A stateless hash of (seed, key, index) into [0, 1), for schedules that must not consume draws.
   */
  public static double hashUniform(long seed, long key, long index) {
    long h = mix(mix(seed ^ key) + index * 0x632BE59BD9B4E019L);
    return (h >>> 11) * 0x1.0p-53;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Uniform in [0, 1). */
  public double uniform() {
    return random.nextDouble();
  }

  /** Uniform in [lo, hi). */
  public double uniform(double lo, double hi) {
    return lo + (hi - lo) * random.nextDouble();
  }

  /** True with probability {@code p}. */
  public boolean chance(double p) {
    return random.nextDouble() < p;
  }

  /** Uniform integer in [0, bound). */
  public int nextInt(int bound) {
    return random.nextInt(bound);
  }

  /** Exponentially distributed with the given rate (events per unit). */
  public double exponential(double rate) {
    return -Math.log(1.0 - random.nextDouble()) / rate;
  }

  /** Standard normal (Box-Muller; one value per call keeps the sequence simple to reason about). */
  public double normal() {
    double u1 = 1.0 - random.nextDouble();
    double u2 = random.nextDouble();
    return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
  }

  /** Log-normal with the given median and shape (sigma of the underlying normal). */
  public double logNormal(double median, double sigma) {
    return median * Math.exp(sigma * normal());
  }
}
