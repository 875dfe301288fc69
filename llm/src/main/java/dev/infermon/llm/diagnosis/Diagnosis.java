package dev.infermon.llm.diagnosis;

import java.util.List;

/**
 * What diagnosis found over one window: the states with their evidence, the pods it looked at and,
 * per pod, the signals it could not read. No finding means that no state was seen and no symptom
 * the default alerts watch was there, in what could be read: {@link #notMeasured} says what could
 * not. Immutable.
 *
 * @param startMs the window's start
 * @param endMs the window's end
 * @param pods the pods examined, as {@code namespace/pod (model)}
 * @param findings the states found, by pod
 * @param notMeasured per pod, the signals that could not be read (pods that miss none are left out)
 * @param unexamined inference targets scraped in the window that diagnosis could not examine at
 *     all, as {@code namespace/pod: why} (none of their families is one it reads by model and pod):
 *     for them "no finding" means nothing was read, never that they are healthy
 */
public record Diagnosis(
    long startMs,
    long endMs,
    List<String> pods,
    List<Finding> findings,
    List<NotMeasured> notMeasured,
    List<String> unexamined) {
  public Diagnosis {
    pods = List.copyOf(pods);
    findings = List.copyOf(findings);
    notMeasured = List.copyOf(notMeasured);
    unexamined = List.copyOf(unexamined);
  }

  /** A diagnosis that examined every inference target scraped. */
  public Diagnosis(
      long startMs,
      long endMs,
      List<String> pods,
      List<Finding> findings,
      List<NotMeasured> notMeasured) {
    this(startMs, endMs, pods, findings, notMeasured, List.of());
  }

  /** A diagnosis that read every signal of every pod. */
  public Diagnosis(long startMs, long endMs, List<String> pods, List<Finding> findings) {
    this(startMs, endMs, pods, findings, List.of());
  }
}
