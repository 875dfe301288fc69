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
        s.report(
            CheckId.PREFIX_SPELLING,
            at,
            name
                + " is "
                + e.title()
                + "'s "
                + hit.family()
                + " with the prefix's ':' turned into '_', a spelling "
                + e.title()
                + " never exposes"
                + (s.ref.spellingsOf(e).isEmpty() ? "" : "; the endpoints spell it " + use)
                + ".",
            "use " + use,
            name);
        return true;
      }
    }
    return false;
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
    String prefix = null;
    for (dev.infermon.llm.catalog.Spelling sp : used) {
      if (sp.variant().equals(hit.variant())) {
        return sample;
      }
      // a product's spelling that cannot carry the family (NIM lacks num_preemptions_total) is
      // no spelling to suggest: the product's subset decides (MissingName)
      if (prefix == null && hit.engine().serves(sp.variant(), hit.latest().name())) {
        prefix = sp.prefix();
      }
    }
    return prefix == null ? sample : prefix + sample.substring(hit.variant().prefix().length());
  }

  /**
   * The same name under another prefix of its engine: the one a target exposes, or, when no target
   * of the engine uses the name's spelling, the spelling they use (a family created on first use is
   * absent under either spelling; the spelling is still wrong).
   */
  static String otherSpelling(QueryScope s, String name) {
    if (s.ref.mode() == Reference.Mode.CATALOG) {
      return null;
    }
    Reference.CatalogHit hit = s.ref.catalogHit(name);
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
