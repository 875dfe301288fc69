package dev.infermon.lint.checks;

import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.History;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import java.util.Optional;

/**
 * What a family's catalog history offers the name checks: renames both ways, the replacement of a
 * removed name, the release that added it. A fix names only what the endpoints' releases have, so
 * each is checked against them ({@link #existsInTargetReleases}).
 */
final class NameHistory {
  private static final String[] SUFFIXES = {"", "_bucket", "_sum", "_count", "_total"};

  private NameHistory() {}

  /** A current name whose history says it was renamed from {@code name}'s family; else null. */
  static String renamedTo(QueryScope s, String name) {
    for (EngineCatalog e : s.ref.catalog().engines()) {
      for (NameVariant v : e.variants()) {
        if (v.prefix().isEmpty() ? !name.startsWith("DCGM_") : !name.startsWith(v.prefix())) {
          continue;
        }
        String bare = name.substring(v.prefix().length());
        for (MetricEntry m : e.metrics()) {
          String to = renamedTo(s, e, v, m, bare);
          if (to != null) {
            return to;
          }
        }
      }
    }
    return null;
  }

  /** {@code m}'s name in {@code v} when {@code bare} is its old name plus a sample suffix. */
  private static String renamedTo(
      QueryScope s, EngineCatalog e, NameVariant v, MetricEntry m, String bare) {
    String from = m.history().renamedFrom();
    if (from == null) {
      return null;
    }
    for (String suffix : SUFFIXES) {
      if (bare.equals(from + suffix) && existsInTargetReleases(s, e, m.name())) {
        String base = m.familyName(v);
        return suffix.equals("_total") && base.endsWith("_total") ? base : base + suffix;
      }
    }
    return null;
  }

  /** The name the family had before its rename, when the endpoints' releases have it. */
  static Optional<String> renamedFrom(QueryScope s, Reference.CatalogHit hit, String sample) {
    String from = hit.latest().history().renamedFrom();
    if (from == null || !existsInTargetReleases(s, hit.engine(), from)) {
      return Optional.empty();
    }
    return Optional.of(hit.variant().prefix() + from + suffixOf(hit, sample));
  }

  /** The replacement a history names, when the endpoints' releases have it; else empty. */
  static String replacement(QueryScope s, Reference.CatalogHit hit, History h, String sample) {
    if (h.replacedBy() == null || !existsInTargetReleases(s, hit.engine(), h.replacedBy())) {
      return "";
    }
    return "use " + hit.variant().prefix() + h.replacedBy() + suffixOf(hit, sample);
  }

  /**
   * Whether some release the engine's targets run (the newest, without targets) exposes the family:
   * a fix must name something the user's endpoints can serve.
   */
  static boolean existsInTargetReleases(QueryScope s, EngineCatalog e, String family) {
    ReleaseRange r = s.ref.releases(e);
    for (ReleaseLine v : e.versions()) {
      if (v.compareTo(r.first()) < 0 || v.compareTo(r.last()) > 0) {
        continue;
      }
      for (MetricEntry m : e.entries(family)) {
        if (m.exposedIn(v)) {
          return true;
        }
      }
    }
    return false;
  }

  /** What the queried sample adds to its family name ({@code _bucket}), for the replacement. */
  private static String suffixOf(Reference.CatalogHit hit, String sample) {
    return sample.startsWith(hit.family()) ? sample.substring(hit.family().length()) : "";
  }

  /** The first release any of the hit's entries exists in. */
  static ReleaseLine firstRelease(Reference.CatalogHit hit) {
    ReleaseLine first = null;
    for (MetricEntry m : hit.entries()) {
      if (first == null || m.since().compareTo(first) < 0) {
        first = m.since();
      }
    }
    return first;
  }

  /** ", hidden from X, removed in Y" for a deprecation message; empty when neither. */
  static String gone(History h) {
    StringBuilder sb = new StringBuilder();
    if (h.hidden() != null) {
      sb.append(", hidden from ").append(h.hidden());
    }
    if (h.removed() != null) {
      sb.append(", removed in ").append(h.removed());
    }
    return sb.toString();
  }
}
