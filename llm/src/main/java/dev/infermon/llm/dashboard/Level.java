package dev.infermon.llm.dashboard;

import java.util.List;

/** The dashboard's levels, each with the labels its series are grouped by. */
public enum Level {
  /** The model across its pods. */
  MODEL(List.of("model_name")),
  /** Each inference pod. */
  POD(List.of("namespace", "pod")),
  /** Each GPU of each inference pod. */
  GPU(List.of("namespace", "pod", "gpu")),
  /** Prefill and decode sides of a model, apart. */
  ROLE(List.of("model_name", "role"));

  private final List<String> groupBy;

  Level(List<String> groupBy) {
    this.groupBy = groupBy;
  }

  /** The labels series are grouped by at this level. */
  public List<String> groupBy() {
    return groupBy;
  }
}
