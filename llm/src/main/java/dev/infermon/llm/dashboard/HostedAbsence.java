package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Absence;
import dev.infermon.llm.catalog.EngineCatalog;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The reason a host's pod gives for a component's empty panel (LMCache on a vLLM pod without it),
 * from the catalog's clauses for that pod: where a band of releases has no setting that turns the
 * component on (vLLM before any LMCache connector), the host's own release is the reason, with the
 * first release that has one; otherwise the flag that turns it on. A pod whose release range meets
 * several bands says each band's clause, since any of them may be its release's.
 */
final class HostedAbsence {
  private HostedAbsence() {}

  static EmptyReason reason(
      EngineCatalog component, EngineCatalog host, List<Absence> said, String conditionFlag) {
    if (said.isEmpty()) {
      return new EmptyReason(
          EmptyReason.Kind.BEHIND_FLAG,
          component.engine(),
          "no "
              + component.title()
              + " on these "
              + host.title()
              + " pods: it is on their page only with "
              + conditionFlag,
          null,
          conditionFlag);
    }
    String why = said.stream().map(Absence::why).distinct().collect(Collectors.joining("; "));
    for (Absence a : said) {
      if (a.behindFlag()) {
        String flag = a.flag().isEmpty() ? conditionFlag : a.flag();
        return new EmptyReason(EmptyReason.Kind.BEHIND_FLAG, component.engine(), why, null, flag);
      }
    }
    // no band the pod may run has a setting: the first release where a flag turns the component
    // on is the fix, as an engine's own missing family names the release that adds it
    return new EmptyReason(
        EmptyReason.Kind.NOT_EXPOSED, host.engine(), why, firstSwitchable(component, host), null);
  }

  /** The host's first release line where a band's flag turns the component on; null if none. */
  private static String firstSwitchable(EngineCatalog component, EngineCatalog host) {
    return component.absences().stream()
        .filter(a -> a.on().equals(host.engine()) && a.workerOf().isEmpty() && a.behindFlag())
        .map(Absence::since)
        .filter(v -> !v.isEmpty())
        .min(java.util.Comparator.comparing((String v) -> host.version(v).orElseThrow().ordinal()))
        .orElse(null);
  }
}
