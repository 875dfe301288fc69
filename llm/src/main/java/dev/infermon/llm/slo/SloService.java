package dev.infermon.llm.slo;

import dev.infermon.promql.QueryBackend;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * The SLO panel, the front door of this package for {@code /api/v1/llm/slo}: each SLO's objective,
 * attainment, error budget left and burn rates ({@link SloStatus}), read from the series the
 * generated rules record, with the burn windows those rules alert on ({@link BurnWindow#DEFAULT}).
 * The rules themselves are an export ({@code ExportService.sloRules}).
 *
 * <p>Errors: the backend's {@code QueryException}s as they come.
 *
 * <p>Threading: thread-safe when the backend is.
 */
public final class SloService {
  private final QueryBackend backend;
  private final LongSupplier nowMs;

  public SloService(QueryBackend backend) {
    this(backend, System::currentTimeMillis);
  }

  SloService(QueryBackend backend, LongSupplier nowMs) {
    if (backend == null) {
      throw new IllegalArgumentException("backend is required");
    }
    this.backend = backend;
    this.nowMs = nowMs;
  }

  /** The state of every SLO whose rules are loaded, at {@code timeMs} (default: now). */
  public List<SloStatus.State> status(OptionalLong timeMs) {
    return SloStatus.read(backend, timeMs.orElseGet(nowMs), BurnWindow.DEFAULT);
  }
}
