package dev.infermon.llm.diagnosis;

import java.util.List;

/**
 * What diagnosis found over one window: the states with their evidence, and the pods it looked at.
 * No finding means nothing looked wrong. Immutable.
 *
 * @param startMs the window's start
 * @param endMs the window's end
 * @param pods the pods examined, as {@code namespace/pod (model)}
 * @param findings the states found, by pod
 */
public record Diagnosis(long startMs, long endMs, List<String> pods, List<Finding> findings) {
  public Diagnosis {
    pods = List.copyOf(pods);
    findings = List.copyOf(findings);
  }
}
