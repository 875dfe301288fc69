package dev.infermon.simulator.vllm;

/**
 * vLLM's sleep mode ({@code --enable-sleep-mode}, {@code POST /sleep?level=N}, {@code POST
 * /wake_up}) as a fleet plays it: the first {@code pods} current vLLM pods sleep at {@code level}
 * from {@code afterSeconds} after the fleet's start for {@code forSeconds}, then wake. Level 1
 * offloads the weights to CPU memory and discards the KV cache; level 2 discards both
 * (vllm-project/vllm docs/features/sleep_mode.md, "Sleep levels"). While asleep the server answers
 * 503 on the generation endpoints (docs/source/features/sleep_mode.md, "Protected Endpoints"), so
 * no request reaches the engine; the page's {@code vllm:engine_sleep_state} then reads {@code
 * weights_offloaded} = 1 (level 1) or {@code discard_all} = 1 (level 2), {@code awake} = 0 (its
 * HELP text on the 2026-09 capture). Immutable.
 *
 * @param pods how many current vLLM pods sleep (0: none)
 * @param level the sleep level, 1 or 2
 * @param afterSeconds when the stretch begins, seconds after the fleet's start
 * @param forSeconds how long it lasts, seconds
 */
public record VllmSleep(int pods, int level, double afterSeconds, double forSeconds) {
  /** No pod sleeps. */
  public static final VllmSleep NONE = new VllmSleep(0, 1, 0, 0);

  /** Validates. */
  public VllmSleep {
    if (pods < 0) {
      throw new IllegalArgumentException("sleeping pods must be >= 0, got " + pods);
    }
    if (level != 1 && level != 2) {
      throw new IllegalArgumentException("sleep level must be 1 or 2, got " + level);
    }
    if (!(afterSeconds >= 0)
        || !(forSeconds >= 0)
        || Double.isInfinite(afterSeconds + forSeconds)) {
      throw new IllegalArgumentException(
          "sleep stretch needs finite afterSeconds and forSeconds >= 0, got "
              + afterSeconds
              + ", "
              + forSeconds);
    }
  }

  /** Whether any pod sleeps. */
  public boolean any() {
    return pods > 0 && forSeconds > 0;
  }

  /**
   * One pod's stretch of sleep, in epoch seconds.
   *
   * @param level 1 or 2
   * @param from when it falls asleep
   * @param until when it wakes
   */
  public record Stretch(int level, double from, double until) {
    /** Awake throughout. */
    public static final Stretch NEVER = new Stretch(1, Double.MAX_VALUE, Double.MAX_VALUE);

    /** The sleep level at {@code epochSeconds}: 0 awake, else 1 or 2. */
    public int levelAt(double epochSeconds) {
      return epochSeconds >= from && epochSeconds < until ? level : 0;
    }
  }

  /**
   * The stretch of the {@code index}-th current vLLM pod of a fleet started at {@code fleetStart}:
   * {@link Stretch#NEVER} for the pods that stay awake.
   */
  public Stretch stretch(int index, double fleetStart) {
    if (index >= pods || forSeconds == 0) {
      return Stretch.NEVER;
    }
    double from = fleetStart + afterSeconds;
    return new Stretch(level, from, from + forSeconds);
  }
}
