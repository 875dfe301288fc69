package dev.infermon.llm.capacity;

import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.parser.PromqlParser;
import java.util.function.LongSupplier;

/**
 * Capacity headroom, the front door of this package: {@code /api/v1/llm/capacity} comes here, so
 * the look-back, the step and what "now" is are decided in one place (docs/capacity.md). Per model
 * and per pod, from the stored history of the look-back: the request rate at which KV usage reaches
 * its ceiling, the headroom over the current rate, and the time until the ceiling at the rate's
 * linear trend; each with its limits, or the reason there is none.
 *
 * <p>Errors: {@link BadParameterException} for a look-back that is not positive or longer than
 * {@link #MAX_LOOKBACK}; the backend's {@code QueryException}s as they come.
 *
 * <p>Threading: thread-safe when the backend is; each call holds its own state.
 */
public final class CapacityService {
  /** How much history is fitted when not told: whatever of it exists. */
  public static final String DEFAULT_LOOKBACK = "7d";

  /** The longest look-back accepted. */
  public static final String MAX_LOOKBACK = "90d";

  static final long DEFAULT_LOOKBACK_MS = PromqlParser.parseDuration(DEFAULT_LOOKBACK);
  static final long MAX_LOOKBACK_MS = PromqlParser.parseDuration(MAX_LOOKBACK);

  /** "Now": the mean rate over the last quarter hour. */
  public static final long CURRENT_MS = 15 * 60_000L;

  /** The finest step: five minutes, so a step's rate counts enough requests to be read. */
  static final long MIN_STEP_MS = 5 * 60_000L;

  /** At most this many steps over the look-back. */
  static final long MAX_POINTS = 1000;

  private final CapacityEstimator estimator;
  private final LongSupplier nowMs;

  /** Over the process's shared inventory service, which must read the same {@code backend}. */
  public CapacityService(QueryBackend backend, InventoryService inventories) {
    this(backend, inventories, System::currentTimeMillis);
  }

  CapacityService(QueryBackend backend, InventoryService inventories, LongSupplier nowMs) {
    this.estimator = new CapacityEstimator(inventories, backend);
    this.nowMs = nowMs;
  }

  /**
   * The estimates {@code r} asks for.
   *
   * @throws BadParameterException {@code lookback} when not positive or beyond {@link
   *     #MAX_LOOKBACK}
   */
  public CapacityReport estimate(CapacityRequest r) {
    long lookback = r.lookbackMs().orElse(DEFAULT_LOOKBACK_MS);
    if (lookback <= 0) {
      throw new BadParameterException("lookback", "the look-back must be positive");
    }
    if (lookback > MAX_LOOKBACK_MS) {
      throw new BadParameterException(
          "lookback", "the look-back must not exceed " + MAX_LOOKBACK + ", got " + lookback + "ms");
    }
    long step = step(lookback);
    if (lookback < step) {
      throw new BadParameterException(
          "lookback", "the look-back must be at least one step (" + step / 60_000 + "m)");
    }
    long end = r.endMs().orElseGet(nowMs) / 1000 * 1000;
    int current = (int) Math.max(1, CURRENT_MS / step);
    return estimator.estimate(end, lookback, step, current, r.model(), r.pod());
  }

  /** The step for a look-back: at most {@link #MAX_POINTS} steps, whole minutes, at least 5 m. */
  static long step(long lookbackMs) {
    return Math.max(MIN_STEP_MS, lookbackMs / MAX_POINTS / 60_000 * 60_000);
  }
}
