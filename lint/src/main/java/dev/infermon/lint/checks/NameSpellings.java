package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Location;
import dev.infermon.lint.Severity;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.NameVariant;
import java.util.Set;

/**
 * The spelling half of {@link NameCheck}: a name in a spelling the engine's targets do not use
 * (another prefix, the prefix's {@code :} turned into {@code _}, a lookalike without the prefix),
 * reported as {@code prefix-spelling} with the spelling to use.
 */
final class NameSpellings {
  private NameSpellings() {}

  /**
   * A name the endpoints do expose, on a target whose names are an engine's in a spelling the
   * catalog does not know (the inventory's lookalike): the query may be right for those endpoints,
   * but infermon reads none of it until they are relabelled. True when reported.
   */
  static boolean lookalike(QueryScope s, MetricInfo info, Location at) {
    for (dev.infermon.llm.inventory.TargetInventory t : info.targets()) {
      dev.infermon.llm.inventory.Lookalike l = t.detection().lookalike();
      if (l == null || !info.sample().startsWith(l.seenPrefix())) {
        continue;
      }
      String use = l.use().prefix() + info.sample().substring(l.seenPrefix().length());
      s.report(
          CheckId.PREFIX_SPELLING,
          Severity.WARNING,
          at,
          info.sample() + " is exposed by " + t.label("instance") + ": " + l.message() + ".",
          "relabel the endpoints' names to " + l.use().label() + " and use " + use,
          info.sample());
      return true;
    }
    return false;
  }

  /**
   * A name of an engine written with its prefix's {@code :} turned into {@code _} ({@code
   * vllm_num_requests_running}), a spelling no target of the catalog's engines has: reported with
   * the spelling the engine's targets use (the engine's default without targets). True when
   * reported.
   */
  static boolean colonsReplaced(QueryScope s, String name, Location at) {
    for (EngineCatalog e : s.ref.catalog().engines()) {
      for (NameVariant v : e.variants()) {
        String under = v.prefix().replace(':', '_');
        if (!v.prefix().contains(":") || !name.startsWith(under) || e.spelling(under).isPresent()) {
          continue;
        }
        Reference.CatalogHit hit = s.ref.catalogHit(v.prefix() + name.substring(under.length()));
        if (hit == null || hit.engine() != e) {
          continue;
        }
        String use =
            inTargetSpelling(s, hit, hit.variant().prefix() + name.substring(under.length()));
        String how = " with the prefix's ':' turned into '_'";
        reportPrefix(s, at, name, hit, how, use, !s.ref.spellingsOf(e).isEmpty());
        return true;
      }
    }
    return false;
  }

  /**
   * A name of an engine whose prefix ends in {@code _} written with a {@code :} there ({@code
   * tgi:queue_size}, {@code dynamo:frontend_requests_total}), or, against targets of the engine,
   * written without the prefix ({@code trt_llm_request_metrics} for Triton's {@code
   * nv_trt_llm_request_metrics}): no target of the catalog's engines has either spelling, so it is
   * reported with the one the engine's targets use. A bare name is judged only where targets of the
   * engine use that prefix and none exposes the name: elsewhere it may be any exporter's. True when
   * reported.
   */
  static boolean prefixMisspelled(QueryScope s, MetricInfo info, Location at) {
    String name = info.sample();
    boolean exposed = info.exposed();
    for (EngineCatalog e : s.ref.catalog().engines()) {
      for (NameVariant v : e.variants()) {
        String p = v.prefix();
        if (!p.endsWith("_")) {
          continue;
        }
        String colon = p.substring(0, p.length() - 1) + ":";
        String meant;
        String how;
        if (name.startsWith(colon)) {
          meant = p + name.substring(colon.length());
          how = " with a ':' for the prefix's '_'";
        } else if (!name.startsWith(p) && !exposed && usedByTargets(s, e, v)) {
          meant = p + name;
          how = " without its prefix " + p;
        } else {
          continue;
        }
        Reference.CatalogHit hit = s.ref.catalogHit(meant);
        if (hit == null || hit.engine() != e) {
          continue;
        }
        String use = inTargetSpelling(s, hit, meant);
        reportPrefix(s, at, name, hit, how, use, false);
        return true;
      }
    }
    return false;
  }

  /** A prefix-spelling finding: which engine's family {@code name} is, how it was misspelled. */
  private static void reportPrefix(
      QueryScope s,
      Location at,
      String name,
      Reference.CatalogHit hit,
      String how,
      String use,
      boolean sayEndpoints) {
    String engine = hit.engine().title();
    s.report(
        CheckId.PREFIX_SPELLING,
        at,
        name
            + " is "
            + engine
            + "'s "
            + hit.family()
            + how
            + ", a spelling "
            + engine
            + " never exposes"
            + (sayEndpoints ? "; the endpoints spell it " + use : "")
            + ".",
        "use " + use,
        name);
  }

  private static boolean usedByTargets(QueryScope s, EngineCatalog e, NameVariant v) {
    return s.ref.spellingsOf(e).stream().anyMatch(sp -> sp.variant().equals(v));
  }

  /**
   * {@code sample} (of {@code hit}'s family, in {@code hit}'s spelling) in the spelling of the
   * engine's targets: the first of them, or the name as it is when the targets use its spelling or
   * there are none.
   */
  static String inTargetSpelling(QueryScope s, Reference.CatalogHit hit, String sample) {
    Set<dev.infermon.llm.catalog.Spelling> used = s.ref.spellingsOf(hit.engine());
    // a family only its product serves (NIM's request_failure_total) has no other spelling
    if (used.isEmpty()
        || hit.latest().prefixless()
        || hit.variant().own().contains(hit.latest().name())) {
      return sample;
    }
    String spelt = null;
    String family = hit.latest().familyName(hit.variant());
    String suffix = sample.startsWith(family) ? sample.substring(family.length()) : null;
    for (dev.infermon.llm.catalog.Spelling sp : used) {
      if (sp.variant().equals(hit.variant())) {
        return sample;
      }
      // a product's spelling that cannot carry the family (NIM lacks num_preemptions_total) is
      // no spelling to suggest: the product's subset decides (MissingName)
      if (spelt == null && hit.engine().serves(sp.variant(), hit.latest().name())) {
        // a product's own name for the family (NIM's request_finish_total) is its spelling
        spelt =
            suffix != null
                ? hit.latest().familyName(sp.variant()) + suffix
                : sp.prefix() + sample.substring(hit.variant().prefix().length());
      }
    }
    return spelt == null ? sample : spelt;
  }

  /**
   * The same name under another prefix of its engine: the one a target exposes, or, when no target
   * of the engine uses the name's spelling, the spelling they use (a family created on first use is
   * absent under either spelling; the spelling is still wrong).
   */
  static String otherSpelling(QueryScope s, String name, Reference.CatalogHit selected) {
    if (s.ref.mode() == Reference.Mode.CATALOG) {
      return null;
    }
    // the selector's spelling (engine_type!="" reads TensorRT-LLM 1.0's), else the name's
    Reference.CatalogHit hit = selected != null ? selected : s.ref.catalogHit(name);
    if (hit != null) {
      String spelt = inTargetSpelling(s, hit, name);
      if (!spelt.equals(name)) {
        return spelt;
      }
    }
    for (EngineCatalog e : s.ref.catalog().engines()) {
      for (NameVariant from : e.variants()) {
        if (from.prefix().isEmpty() || !name.startsWith(from.prefix())) {
          continue;
        }
        String rest = name.substring(from.prefix().length());
        for (NameVariant to : e.variants()) {
          if (to == from || to.prefix().isEmpty()) {
            continue;
          }
          String alt = to.prefix() + rest;
          MetricInfo i = s.info(alt);
          if (i.exposed() && i.judgedByTargets()) {
            return alt;
          }
        }
      }
    }
    return null;
  }
}
