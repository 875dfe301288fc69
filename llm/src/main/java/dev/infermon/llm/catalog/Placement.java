package dev.infermon.llm.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where a component without targets of its own runs (LMCache inside vLLM) and what is true of a pod
 * it is not read on: per engine ({@code sglang}) or per product embedding the host ({@code NVIDIA
 * NIM}), the clause an empty panel of the component's signals says there. Immutable.
 *
 * @param host the engine whose process the component runs in; empty for an engine
 * @param absentOn engine id or product name to the clause, in catalog order
 */
public record Placement(String host, Map<String, String> absentOn) {
  public Placement {
    absentOn = Collections.unmodifiableMap(new LinkedHashMap<>(absentOn));
    if (host.isEmpty() && !absentOn.isEmpty()) {
      throw new IllegalArgumentException("absent_on needs runs_in: only a component is absent");
    }
  }

  /** What the catalog says of a pod of {@code engineOrProduct}; empty when it does not say. */
  public Optional<String> absentOn(String engineOrProduct) {
    return Optional.ofNullable(absentOn.get(engineOrProduct));
  }
}
