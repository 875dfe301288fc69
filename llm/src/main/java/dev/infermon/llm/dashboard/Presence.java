package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.Router;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.inventory.Inventory;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which families a compiled query may reference: those an inventory found (so a query never names a
 * family no target exposes), or, for an export with no fleet at hand, every family of the chosen
 * spellings.
 */
@FunctionalInterface
public interface Presence {
  /** Whether {@code entry} spelled as {@code variant} should appear in queries. */
  boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry);

  /**
   * The label whose presence marks a router's copy of {@code sample} (vLLM production-stack's
   * {@code server} on its {@code vllm:num_requests_running}), which engine queries must leave out;
   * empty when no router in scope writes {@code sample}.
   */
  default String shadowLabel(String sample) {
    return "";
  }

  /**
   * Whether a sample name outside the engines' catalogs is present (a router's {@code
   * llm_d_epp_scheduler_attempts_total}, a histogram's {@code _bucket}); false for an export, which
   * has no fleet at hand.
   */
  default boolean hasSample(String sample) {
    return false;
  }

  /**
   * Whether some series present may carry the label {@code name} (a dcgm series' {@code
   * GPU_I_PROFILE}): false only when the fleet is known and none does, so a query may leave out
   * what reads the label. True when the labels are not known (an export, or families alone).
   */
  default boolean mayHaveLabel(String name) {
    return true;
  }

  /** The families of {@code engine} this has; samples, labels and routers' copies as this. */
  default Presence onlyEngine(String engine) {
    return and(
        new Presence() {
          @Override
          public boolean has(EngineCatalog e, NameVariant variant, MetricEntry entry) {
            return e.engine().equals(engine);
          }

          @Override
          public boolean hasSample(String sample) {
            return true; // "and" keeps this presence's answer
          }
        });
  }

  /**
   * The families both this and {@code other} have, a sample or label where both say so, and a
   * router's copies left out where either leaves them out: an export's spellings limited to what a
   * fleet or the current releases have keep the spellings' router matchers.
   */
  default Presence and(Presence other) {
    Presence self = this;
    return new Presence() {
      @Override
      public boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry) {
        return self.has(engine, variant, entry) && other.has(engine, variant, entry);
      }

      @Override
      public String shadowLabel(String sample) {
        String s = self.shadowLabel(sample);
        return s.isEmpty() ? other.shadowLabel(sample) : s;
      }

      @Override
      public boolean hasSample(String sample) {
        return self.hasSample(sample) && other.hasSample(sample);
      }

      @Override
      public boolean mayHaveLabel(String name) {
        return self.mayHaveLabel(name) && other.mayHaveLabel(name);
      }
    };
  }

  /**
   * The families and the label names of an inventory's targets ({@link #of(Set)} and {@link
   * #mayHaveLabel} from the labels its families' series carry), names two engines share told apart
   * as {@code catalog} says ({@link #ofTargets}).
   */
  static Presence of(Inventory inventory, Catalog catalog) {
    Presence families = ofTargets(inventory, catalog);
    Set<String> labels = inventory.labelNames();
    return new Presence() {
      @Override
      public boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry) {
        return families.has(engine, variant, entry);
      }

      @Override
      public String shadowLabel(String sample) {
        return families.shadowLabel(sample);
      }

      @Override
      public boolean hasSample(String sample) {
        return families.hasSample(sample);
      }

      @Override
      public boolean mayHaveLabel(String name) {
        return labels.contains(name);
      }
    };
  }

  /**
   * The families of an inventory's targets ({@link #of(Set)}), where a name two engines' spellings
   * share, told apart by a label (TensorRT-LLM 1.0's unprefixed {@code time_to_first_token_seconds}
   * with {@code engine_type}, NVIDIA NIM's without), counted for a spelling only when a target
   * detected as that engine in that spelling has it ({@link Inventory#exposes}): each engine's
   * query then reads its own series ({@link Catalog#matchersTellingApart}), and an engine absent
   * from the fleet adds no branch. {@code catalog} says which labels tell a shared name apart. A
   * family a router present copies per backend is counted the same way, so a router's copy of a
   * gauge the engines no longer write (V0's swapped requests) adds no empty query.
   */
  static Presence ofTargets(Inventory inventory, Catalog catalog) {
    Presence names = of(inventory.families());
    return new Presence() {
      @Override
      public boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry) {
        String family = entry.familyName(variant);
        // a family a router copies (production-stack's vllm:num_requests_swapped) is the
        // engine's only where an engine's own page has it
        if (variant.requiredLabels().isEmpty()
            && catalog.labelsTellingApart(engine, family).isEmpty()
            && names.shadowLabel(family).isEmpty()) {
          return names.has(engine, variant, entry);
        }
        return engine.serves(variant, entry.name())
            && inventory.exposes(engine.engine(), variant.prefix(), family);
      }

      @Override
      public String shadowLabel(String sample) {
        return names.shadowLabel(sample);
      }

      @Override
      public boolean hasSample(String sample) {
        return names.hasSample(sample);
      }
    };
  }

  /**
   * The families named in {@code families} (as an inventory lists them); where a router of the
   * built-in catalog is among them and writes engine-named families, engine queries leave its
   * copies out ({@link #shadowLabel}). A spelling told apart only by its labels (TensorRT-LLM 1.0's
   * unprefixed names, which are NVIDIA NIM's too) is not queried: names alone do not say which
   * engine's pod has them ({@link #ofTargets} does).
   */
  static Presence of(Set<String> families) {
    Map<String, String> shadows = routerCopies(r -> r.signedBy(families));
    return new Presence() {
      @Override
      public boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry) {
        return variant.requiredLabels().isEmpty() && families.contains(entry.familyName(variant));
      }

      @Override
      public String shadowLabel(String sample) {
        return shadows.getOrDefault(sample, "");
      }

      @Override
      public boolean hasSample(String sample) {
        return families.contains(sample);
      }
    };
  }

  /**
   * Every family of the engines of {@code spellings}, in those spellings only, and in a spelling of
   * a product or of some releases only the families it serves: NVIDIA NIM never exposes an
   * unprefixed {@code num_preemptions_total}, TensorRT-LLM's unprefixed names are 1.0's five, so an
   * export that named others would read names no endpoint has. A spelling told apart by its labels
   * is read with them ({@link Catalog#matchersTellingApart}). Written for any fleet, its queries
   * leave out the copies of every router of the built-in catalog ({@link #shadowLabel}: vLLM
   * production-stack's {@code server}): an engine's series never carry that label, so the matcher
   * keeps them all, and a router scraped beside the engines is not counted as one more engine.
   */
  static Presence spellings(Set<Spelling> spellings) {
    Set<Spelling> copy = Set.copyOf(spellings);
    Map<String, String> shadows = routerCopies(r -> true);
    return new Presence() {
      @Override
      public boolean has(EngineCatalog e, NameVariant v, MetricEntry m) {
        return copy.contains(new Spelling(e.engine(), v)) && e.serves(v, m.name());
      }

      @Override
      public String shadowLabel(String sample) {
        return shadows.getOrDefault(sample, "");
      }
    };
  }

  /** Per engine-named family a router of the built-in catalog {@code in} copies, its label. */
  private static Map<String, String> routerCopies(Predicate<Router> in) {
    Map<String, String> shadows = new HashMap<>();
    for (Router r : Catalog.builtIn().nonEngine().routers()) {
      if (in.test(r)) {
        r.shadows().forEach(f -> shadows.put(f, r.shadowLabel()));
      }
    }
    return Map.copyOf(shadows);
  }
}
