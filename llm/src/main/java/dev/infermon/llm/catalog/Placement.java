package dev.infermon.llm.catalog;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a component without targets of its own runs (LMCache inside vLLM) and what is true of a pod
 * it is not read on: per engine ({@code sglang}) or per product embedding the host ({@code NVIDIA
 * NIM}), the clauses an empty panel of the component's signals says there, some for a band of the
 * host's releases or for the host's pods that are another engine's workers. Immutable.
 *
 * @param host the engine whose process the component runs in; empty for an engine
 * @param absences the clauses, in catalog order
 */
public record Placement(String host, List<Absence> absences) {
  public Placement {
    absences = List.copyOf(absences);
    if (host.isEmpty() && !absences.isEmpty()) {
      throw new IllegalArgumentException("absent_on needs runs_in: only a component is absent");
    }
  }

  /**
   * What the catalog says of any pod of {@code engineOrProduct}, whatever its release; empty when
   * it does not say so unconditionally.
   */
  public Optional<String> absentOn(String engineOrProduct) {
    return absences.stream()
        .filter(a -> a.on().equals(engineOrProduct) && a.unconditional())
        .map(Absence::why)
        .findFirst();
  }

  /**
   * The clauses for a pod of {@code engine} (the host {@code hostCatalog}) of releases {@code
   * range}, served through the engines {@code servedThrough}: those for its wrapper where the
   * catalog has them (a Dynamo worker is started by Dynamo's own switches), else those whose band
   * meets the range; empty where the catalog says nothing.
   */
  public List<Absence> absences(
      String engine, EngineCatalog hostCatalog, ReleaseRange range, Set<String> servedThrough) {
    List<Absence> mine = absences.stream().filter(a -> a.on().equals(engine)).toList();
    List<Absence> wrapped =
        mine.stream()
            .filter(a -> !a.workerOf().isEmpty() && servedThrough.contains(a.workerOf()))
            .toList();
    if (!wrapped.isEmpty()) {
      return wrapped;
    }
    return mine.stream()
        .filter(a -> a.workerOf().isEmpty() && a.overlaps(hostCatalog, range))
        .toList();
  }
}
