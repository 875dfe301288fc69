package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Location;
import dev.infermon.lint.Severity;
import dev.infermon.llm.catalog.BucketBounds;
import dev.infermon.llm.catalog.ReleaseBounds;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A latency threshold must be a bucket bound in every release a target may run, not only in the
 * newest: vLLM 0.4-0.7 (and NVIDIA NIM, which embeds it) stop time to first token at 10 s and time
 * per output token at 2.5 s, so on such a pod {@code le="20.0"} does not exist (a bucket ratio over
 * it reads nothing there, or counts every request as slow when the count is summed apart) and a
 * quantile above 10 is capped at 10 (a {@code > 20} never holds). The bucket sets judged: with
 * endpoints, each target's, as seen on its page (else the catalog's for its detected releases);
 * without, the catalog's in every release line that has the family. Two places are judged: an
 * {@code le="..."} matcher on a {@code _bucket} selector (any set that lacks it), and a quantile's
 * threshold that is a bound of the newest or of the union of the targets' bounds (one that is not
 * is {@code threshold-between-buckets}' finding) but not of some set. An error where a target runs
 * such a release, a warning where only the catalog says one may. Stateless.
 */
final class ReleaseBoundsCheck {
  private ReleaseBoundsCheck() {}

  private static final Pattern LE = Pattern.compile("\\ble\\s*=\\s*\"");

  /**
   * One bucket set of a histogram that a target has or may have.
   *
   * @param where the releases ({@code vLLM 0.4–0.7}) or the target's instance
   * @param releases the target's detected releases ({@code vLLM 0.4}), or "" (none, or not a
   *     target)
   * @param bounds its finite bounds, increasing
   */
  record BucketSet(String where, String releases, List<Double> bounds) {}

  /** The le matchers of every catalogued {@code _bucket} selector, against every set. */
  static void leMatchers(QueryScope s) {
    for (VectorSelector vs : s.selectors()) {
      String name = ExprWalk.metricName(vs);
      if (name == null || !name.endsWith("_bucket")) {
        continue;
      }
      for (Matcher m : vs.matchers()) {
        if (!m.name().equals("le") || m.type() != MatchType.EQUAL) {
          continue;
        }
        Optional<Double> v = number(m.value());
        MetricInfo info = s.info(vs);
        if (v.isEmpty() || v.get().isInfinite() || info == null) {
          continue;
        }
        le(s, vs, info, name, m.value(), v.get());
      }
    }
  }

  private static void le(
      QueryScope s, VectorSelector vs, MetricInfo info, String name, String text, double t) {
    List<BucketSet> sets = sets(s, info);
    List<BucketSet> lack = lacking(sets, t);
    if (lack.isEmpty()) {
      return;
    }
    String family = name.substring(0, name.length() - "_bucket".length());
    String message =
        "le=\""
            + text
            + "\" is "
            + (lack.size() == sets.size()
                ? "no bucket bound of " + family + in(info) + describe(lack, t)
                : "a bucket bound of " + family + ", but not" + in(info) + describe(lack, t))
            + ": there the series does not exist, so a ratio over it reads nothing from those"
            + " targets, or counts each of their requests as over it where the count is summed"
            + " apart.";
    Optional<Double> common = commonBound(sets, t);
    String fix =
        common
            .map(
                b ->
                    "use le=\""
                        + BucketBounds.le(b)
                        + "\", a bound of every release the targets may run, or leave the"
                        + " targets without the bound out of the ratio")
            .orElse("write one rule per bucket set");
    s.report(
        CheckId.BOUND_MISSING_IN_RELEASE,
        severity(info),
        leAt(s, vs),
        message,
        fix,
        BucketBounds.num(t));
  }

  /**
   * A quantile of {@code info}'s histogram compared with {@code t} (a bound of the newest or of the
   * targets' union): a finding where some set lacks it, or where {@code q > t} and {@code t} is a
   * set's largest finite bound: histogram_quantile returns that bound when the quantile lies above
   * it, so {@code > 10} never holds on a vLLM 0.4.3 pod, whose buckets stop at 10.
   */
  static void quantile(
      QueryScope s, MetricInfo info, String family, double t, BinaryOp op, Location at) {
    boolean above = op == BinaryOp.GTR || op == BinaryOp.GTE;
    List<BucketSet> sets = sets(s, info);
    List<BucketSet> missing = lacking(sets, t);
    if (missing.size() == sets.size()) {
      return; // threshold-between-buckets' finding, or nothing to judge
    }
    List<BucketSet> lack = new ArrayList<>();
    for (BucketSet b : sets) {
      if (missing.contains(b) || (op == BinaryOp.GTR && largest(b) == t)) {
        lack.add(b);
      }
    }
    if (lack.isEmpty()) {
      return;
    }
    BucketSet first = lack.get(0);
    BucketBounds.Placement p = BucketBounds.place(t, first.bounds());
    String there =
        p.upper() == null || largest(first) == t
            ? "the quantile is at most "
                + BucketBounds.num(largest(first))
                + " there, so the comparison "
                + (above ? "never holds" : "always holds")
            : "the quantile is interpolated there, not measured";
    Optional<Double> common = commonBound(sets, t);
    String lead =
        missing.isEmpty()
            ? ", the largest finite bucket bound " + (info.judgedByTargets() ? "on " : "in ")
            : info.judgedByTargets()
                ? ", a bucket bound on some targets but not on "
                : ", a bucket bound of the newest release but not in ";
    s.report(
        CheckId.BOUND_MISSING_IN_RELEASE,
        severity(info),
        at,
        "the quantile of "
            + family
            + " is compared with "
            + BucketBounds.num(t)
            + lead
            + describe(lack, t)
            + ": "
            + there
            + ".",
        common
            .map(
                b ->
                    "compare with "
                        + (op == BinaryOp.GTR && isLargest(sets, b) ? ">= " : "")
                        + BucketBounds.num(b)
                        + ", a bound of every release the targets may run, or write one rule per"
                        + " bucket set")
            .orElse("write one rule per bucket set"),
        BucketBounds.num(t));
  }

  private static double largest(BucketSet b) {
    return b.bounds().get(b.bounds().size() - 1);
  }

  private static boolean isLargest(List<BucketSet> sets, double bound) {
    for (BucketSet b : sets) {
      if (largest(b) == bound) {
        return true;
      }
    }
    return false;
  }

  /** The sets: each exposing target's, or without targets, the catalog's runs. */
  static List<BucketSet> sets(QueryScope s, MetricInfo info) {
    List<BucketSet> out = new ArrayList<>();
    String title = info.hit() == null ? "" : info.hit().engine().title() + " ";
    if (info.judgedByTargets()) {
      String family =
          info.hit() != null
              ? info.hit().family()
              : info.sample().substring(0, info.sample().length() - "_bucket".length());
      for (TargetInventory t : info.targets()) {
        FamilyInfo f = t.families().get(family);
        ReleaseRange r = t.detection().versions();
        String where = t.label("instance");
        String releases = r == null ? "" : title + r;
        if (f != null && !f.bounds().isEmpty()) {
          out.add(new BucketSet(where, releases, f.bounds()));
        } else if (info.hit() != null && r != null) {
          for (ReleaseBounds.Run run :
              ReleaseBounds.runs(info.hit().engine(), info.hit().entries(), r)) {
            out.add(new BucketSet(where, releases, run.bounds()));
          }
        }
      }
      return out;
    }
    if (info.hit() == null) {
      return out;
    }
    for (ReleaseBounds.Run run :
        ReleaseBounds.runs(info.hit().engine(), info.hit().entries(), null)) {
      out.add(new BucketSet(title + run.releases(), "", run.bounds()));
    }
    return out;
  }

  private static List<BucketSet> lacking(List<BucketSet> sets, double t) {
    List<BucketSet> out = new ArrayList<>();
    for (BucketSet b : sets) {
      if (!BucketBounds.place(t, b.bounds()).onBound()) {
        out.add(b);
      }
    }
    return out;
  }

  /**
   * The sets that lack the value, grouped by their bounds: {@code vLLM 0.4–0.7 (nearest bounds:
   * 10)}, several targets of one set named together (at most three, then how many more).
   */
  private static String describe(List<BucketSet> lack, double t) {
    Map<List<Double>, List<String>> byBounds = new LinkedHashMap<>();
    Map<List<Double>, java.util.Set<String>> releases = new LinkedHashMap<>();
    for (BucketSet b : lack) {
      byBounds.computeIfAbsent(b.bounds(), k -> new ArrayList<>()).add(b.where());
      if (!b.releases().isEmpty()) {
        releases
            .computeIfAbsent(b.bounds(), k -> new java.util.LinkedHashSet<>())
            .add(b.releases());
      }
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<List<Double>, List<String>> e : byBounds.entrySet()) {
      List<String> names = e.getValue();
      String who =
          names.size() <= 3
              ? String.join(", ", names)
              : String.join(", ", names.subList(0, 3)) + " and " + (names.size() - 3) + " more";
      List<String> near = new ArrayList<>();
      BucketBounds.place(t, e.getKey()).suggestions().forEach(b -> near.add(BucketBounds.num(b)));
      java.util.Set<String> r = releases.getOrDefault(e.getKey(), java.util.Set.of());
      parts.add(
          who
              + " ("
              + (r.isEmpty() ? "" : String.join(", ", r) + "; ")
              + "nearest bounds there: "
              + String.join(", ", near)
              + ")");
    }
    return String.join("; ", parts);
  }

  private static Optional<Double> commonBound(List<BucketSet> sets, double t) {
    List<List<Double>> all = new ArrayList<>();
    sets.forEach(b -> all.add(b.bounds()));
    return ReleaseBounds.commonBoundAtOrBelow(all, t);
  }

  private static String in(MetricInfo info) {
    return info.judgedByTargets() ? " on " : " in ";
  }

  private static Severity severity(MetricInfo info) {
    return info.judgedByTargets() ? Severity.ERROR : Severity.WARNING;
  }

  private static Location leAt(QueryScope s, VectorSelector vs) {
    String text = s.query.expr();
    var m = LE.matcher(text);
    int from = s.offset(vs);
    return m.find(from) ? s.query.at(m.start()) : s.at(vs);
  }

  private static Optional<Double> number(String v) {
    try {
      return Optional.of(Double.parseDouble(v.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
