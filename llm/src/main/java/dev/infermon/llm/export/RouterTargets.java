package dev.infermon.llm.export;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.NonEngineCatalog;
import dev.infermon.llm.catalog.Router;
import dev.infermon.llm.catalog.RouterSource;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The routers an exported dashboard writes the router level for, and for each the {@link Presence}
 * under which the dashboard's own compiler writes that router's queries, as it does on a fleet with
 * that router in front of the engines. Without a fleet: every router the catalog knows, read in the
 * name generations the catalog records as still emitted (llm-d's {@code llm_d_epp_*} with its
 * deprecated twins, joined with {@code or} as the dashboard joins them; never {@code
 * inference_model_*}, which no EPP emits since GAIE #1567). For a fleet: the routers its targets
 * are, in the families they expose. Each router is its own query, whose legend names it: with no
 * fleet at hand the export cannot tell which routers a user runs, and a query per router reads each
 * in its own terms (their latency buckets differ and must not be merged). Immutable.
 */
final class RouterTargets {
  private final List<Router> routers;
  private final Predicate<String> has;

  private RouterTargets(List<Router> routers, Predicate<String> has) {
    this.routers = List.copyOf(routers);
    this.has = has;
  }

  /** Every router of {@code catalog}, in the families it still emits. */
  static RouterTargets known(Catalog catalog) {
    NonEngineCatalog nonEngine = catalog.nonEngine();
    return new RouterTargets(
        nonEngine.routers(), sample -> nonEngine.lookup(sample).map(m -> !m.gone()).orElse(true));
  }

  /**
   * The routers among {@code inventory}'s targets, in the families the targets have; a live page
   * names a histogram by its family, the stored series by its {@code _bucket} samples.
   */
  static RouterTargets of(Catalog catalog, Inventory inventory) {
    Set<String> families = inventory.families();
    List<Router> present = new ArrayList<>();
    for (Router r : catalog.nonEngine().routers()) {
      if (r.signedBy(families)) {
        present.add(r);
      }
    }
    Predicate<String> has =
        sample ->
            families.contains(sample)
                || (sample.endsWith("_bucket")
                    && families.contains(sample.substring(0, sample.length() - 7)));
    return new RouterTargets(present, has);
  }

  /** The routers to write queries for, in the catalog's order. */
  List<Router> routers() {
    return routers;
  }

  /**
   * {@code engines}' families, with router {@code r} the one router present: its samples (those
   * this scope has), and its copies of engine-named gauges left out of the engine series it joins
   * (production-stack's {@code server}), as the dashboard compiles with that router scraped.
   */
  Presence presence(Presence engines, Router r) {
    Set<String> samples = samples(r);
    return new Presence() {
      @Override
      public boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry) {
        return engines.has(engine, variant, entry);
      }

      @Override
      public String shadowLabel(String sample) {
        return r.shadows().contains(sample) ? r.shadowLabel() : engines.shadowLabel(sample);
      }

      @Override
      public boolean hasSample(String sample) {
        return samples.contains(sample) && has.test(sample);
      }

      @Override
      public boolean mayHaveLabel(String name) {
        return engines.mayHaveLabel(name);
      }
    };
  }

  /**
   * A query's legend naming router {@code r}: in place of {@code {{router}}} (a label the dashboard
   * adds only with several routers scraped), else after the legend.
   */
  static String legend(String legend, Router r) {
    return legend.contains("{{router}}")
        ? legend.replace("{{router}}", r.backend())
        : legend + " " + r.backend();
  }

  /** The sample names the router level reads of {@code r}: its signature and its sources'. */
  private static Set<String> samples(Router r) {
    Set<String> out = new LinkedHashSet<>(r.signature());
    for (RouterSource s : r.sources()) {
      out.add(s.family() + (s.type() == MetricType.HISTOGRAM ? "_bucket" : ""));
    }
    return out;
  }
}
