package dev.infermon.llm.catalog;

/**
 * One clause of a component's {@code absent_on} (LMCache's on vLLM pods): what an empty panel of
 * its signals says on a pod of engine or product {@code on}, for the host releases from {@code
 * since} up to {@code until} (the host's release line names; empty for no bound), and for pods
 * served through engine {@code workerOf} (an NVIDIA Dynamo worker, told by that engine's gated
 * families on the page) where set. Immutable.
 *
 * @param on engine id or product name
 * @param workerOf the engine whose worker process the pod is; empty for any pod
 * @param since the first host release line the clause holds for; empty from the beginning
 * @param until the first host release line it no longer holds for; empty for no end
 * @param behindFlag whether a flag turns the component on there (else no setting can)
 * @param flag that flag, where it is not the families' own condition; empty otherwise
 * @param why the clause
 */
public record Absence(
    String on,
    String workerOf,
    String since,
    String until,
    boolean behindFlag,
    String flag,
    String why) {
  public Absence {
    if (on == null || on.isEmpty() || why == null || why.isEmpty()) {
      throw new IllegalArgumentException("an absence needs an engine or product and a why");
    }
    workerOf = workerOf == null ? "" : workerOf;
    since = since == null ? "" : since;
    until = until == null ? "" : until;
    flag = flag == null ? "" : flag;
  }

  /** Whether the clause holds whatever the host's release and wrapper. */
  public boolean unconditional() {
    return workerOf.isEmpty() && since.isEmpty() && until.isEmpty();
  }

  /**
   * Whether some release of {@code range} (host {@code host}'s lines; null when unknown, which
   * every clause may hold for) lies in the clause's band.
   */
  public boolean overlaps(EngineCatalog host, ReleaseRange range) {
    if (range == null) {
      return true;
    }
    ReleaseLine from = since.isEmpty() ? null : host.version(since).orElseThrow();
    ReleaseLine to = until.isEmpty() ? null : host.version(until).orElseThrow();
    return range.last().atLeast(from) && range.first().before(to);
  }
}
