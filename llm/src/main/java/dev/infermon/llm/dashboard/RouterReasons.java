package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.NonEngineMetric;
import dev.infermon.llm.catalog.Router;
import dev.infermon.llm.catalog.RouterSource;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.signals.RouterSignal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Why a router panel is empty: no router is scraped at all ({@link EmptyReason.Kind#NO_ROUTER}, the
 * normal answer of a fleet without one), every target of a router is down, or a router that is
 * there does not measure the signal (SGLang Model Gateway counts no requests per worker). The
 * reason's engine is the router's backend name ({@code llm-d}). Stateless.
 */
final class RouterReasons {
  private RouterReasons() {}

  /**
   * The reasons for router measure {@code m}; {@code pairs} whether the view holds a pod of a
   * prefill/decode pair, without which a router's families about the pairs' requests ({@link
   * RouterSource#pairs}) say nothing of it.
   */
  static List<EmptyReason> explain(
      Measure.Router m, Catalog catalog, Inventory all, boolean pairs) {
    List<EmptyReason> out = new ArrayList<>();
    boolean any = false;
    for (Router r : catalog.nonEngine().routers()) {
      List<TargetInventory> targets = new ArrayList<>();
      for (TargetInventory t : all.targets()) {
        if (r.signedBy(t.families().keySet())) {
          targets.add(t);
        }
      }
      if (targets.isEmpty()) {
        continue;
      }
      any = true;
      List<RouterSource> sources = r.sources(m.signal());
      List<RouterSource> own = sources.stream().filter(s -> !s.pairs()).toList();
      List<RouterSource> forPairs = sources.stream().filter(RouterSource::pairs).toList();
      if (targets.stream().noneMatch(TargetInventory::up)) {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.TARGET_DOWN,
                r.backend(),
                "every " + r.title() + " target is down",
                null,
                null));
      } else if (sources.isEmpty()) {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NOT_EXPOSED,
                r.backend(),
                r.title() + " does not expose " + what(m.signal()) + " in any release",
                null,
                null));
      } else if (!pairs && !present(own, targets) && present(forPairs, targets)) {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NOT_EXPOSED,
                r.backend(),
                r.title()
                    + " exposes "
                    + what(m.signal())
                    + (own.isEmpty()
                        ? ""
                        : " as " + names(own) + ", which its targets do not have,")
                    + " and for prefill/decode pairs as "
                    + names(forPairs)
                    + ", which is no pod's in this view: it is per model, about the requests the"
                    + " router sent to the pairs",
                null,
                null));
      } else if (!present(sources, targets) && retiredOnly(sources, targets, catalog)) {
        NonEngineMetric last = catalog.nonEngine().lookup(sources.get(0).family()).orElseThrow();
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NOT_EXPOSED,
                r.backend(),
                r.title()
                    + " counts "
                    + what(m.signal())
                    + " only under names it no longer writes: "
                    + names(sources)
                    + ", until "
                    + last.until()
                    + "; its targets carry the later names, which have none",
                null,
                null));
      } else if (!present(sources, targets)) {
        out.add(
            new EmptyReason(
                EmptyReason.Kind.NOT_EXPOSED,
                r.backend(),
                r.title()
                    + " exposes "
                    + what(m.signal())
                    + " as "
                    + names(sources)
                    + since(sources)
                    + "; its targets have none of them",
                null,
                null));
      }
    }
    if (!any) {
      out.add(
          new EmptyReason(
              EmptyReason.Kind.NO_ROUTER,
              "",
              "no router in front of this model: no scraped target exposes the families of a"
                  + " router infermon reads ("
                  + titles(catalog)
                  + ")",
              null,
              null));
    }
    return out;
  }

  /**
   * Whether every source is a family of a generation the router stopped writing (sgl-router's
   * sgl_router_*, until sglang #15160) and no target shows a family of such a generation: the
   * targets run a later one, which has no family for the signal (not an older page that has not
   * counted yet).
   */
  private static boolean retiredOnly(
      List<RouterSource> sources, List<TargetInventory> targets, Catalog catalog) {
    for (RouterSource s : sources) {
      Optional<NonEngineMetric> m = catalog.nonEngine().lookup(s.family());
      if (m.isEmpty() || m.get().until() == null || m.get().until().isEmpty()) {
        return false;
      }
    }
    for (TargetInventory t : targets) {
      for (String f : t.families().keySet()) {
        Optional<NonEngineMetric> m = catalog.nonEngine().lookup(f);
        if (m.isPresent() && m.get().until() != null && !m.get().until().isEmpty()) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean present(List<RouterSource> sources, List<TargetInventory> targets) {
    for (TargetInventory t : targets) {
      Set<String> f = t.families().keySet();
      for (RouterSource s : sources) {
        if (f.contains(s.family()) || f.contains(s.family() + "_bucket")) {
          return true;
        }
      }
    }
    return false;
  }

  private static String what(RouterSignal s) {
    switch (s) {
      case ROUTED:
        return "requests routed per pod";
      case IN_FLIGHT:
        return "requests in flight per pod";
      case QUEUE:
        return "a queue";
      case DECISIONS:
        return "routing decisions";
      case LATENCY:
        return "end-to-end latency";
      default:
        return "time to first token";
    }
  }

  private static String names(List<RouterSource> sources) {
    List<String> n = new ArrayList<>();
    sources.forEach(s -> n.add(s.family()));
    return String.join(" or ", n);
  }

  private static String since(List<RouterSource> sources) {
    String s = sources.get(0).since();
    return s.isEmpty() ? "" : " (since " + s.toLowerCase(Locale.ROOT) + ")";
  }

  private static String titles(Catalog catalog) {
    List<String> t = new ArrayList<>();
    catalog.nonEngine().routers().forEach(r -> t.add(r.title()));
    return String.join(", ", t);
  }
}
