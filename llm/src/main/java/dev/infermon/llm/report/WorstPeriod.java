package dev.infermon.llm.report;

import dev.infermon.llm.diagnosis.Finding;
import java.util.List;

/**
 * One of a model's worst periods of a report's window: the time-to-first-token quantile of the
 * alert pack over the period, with what diagnosis found on the model's pods then. Immutable.
 *
 * @param startMs the period's start
 * @param endMs the period's end
 * @param ttftSeconds the TTFT quantile ({@code llm.alerts.ttft_quantile}) over the period
 * @param quantile that quantile (0.95)
 * @param rate the model's mean request rate over the period
 * @param findings the diagnosis of the period, the model's findings only; empty when it found
 *     nothing in what it could read
 */
public record WorstPeriod(
    long startMs,
    long endMs,
    double ttftSeconds,
    double quantile,
    double rate,
    List<Finding> findings) {
  public WorstPeriod {
    findings = List.copyOf(findings);
  }
}
