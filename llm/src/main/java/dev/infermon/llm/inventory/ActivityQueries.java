package dev.infermon.llm.inventory;

import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What each target's families did over the inventory's window ({@link FamilyInfo.Activity}), by
 * {@code key|family}, from instant queries over a ten-step subquery, so "no traffic" is said from
 * the samples' values, not from the families' presence. A family is CHANGING when some series of it
 * changed, else FLAT when some is not 0, else ZERO; each query asks only about the target and
 * family pairs still undecided: which changed among the series that are not buckets (a busy
 * target's families all change there), then among the buckets, then which are not 0. A histogram's
 * buckets, most of its series, are read only for the targets where neither its count nor its sum
 * changed. Stateless.
 */
final class ActivityQueries {
  /** The label that carries a sample's name through the range functions. */
  private static final String NAME = "infermon_sample_name";

  private final Function<String, String> familyOf;

  /**
   * @param familyOf a sample name's family, null when it has none
   */
  ActivityQueries(Function<String, String> familyOf) {
    this.familyOf = familyOf;
  }

  /**
   * The activity of each pair of {@code present} (key to its families, all read), over the series
   * named {@code names} (the pairs' families' sample names); {@code instances} gives each key's
   * {@code instance} label, null when it has none.
   */
  Map<String, FamilyInfo.Activity> read(
      QueryBackend backend,
      long timeMs,
      long windowMs,
      Set<String> names,
      Map<String, Set<String>> present,
      Map<String, String> instances) {
    String range = "[" + windowMs + "ms:" + Math.max(1000, windowMs / 10) + "ms]";
    String by = " by (job, instance, namespace, pod, " + NAME + ") ";
    Map<String, FamilyInfo.Activity> out = new HashMap<>();
    Map<String, Set<String>> pending = present;
    for (int step = 0; step < 3 && !pending.isEmpty(); step++) {
      String selector = selector(names, pending, instances, step);
      if (selector == null) {
        continue;
      }
      String labelled =
          "label_replace(" + selector + ", \"" + NAME + "\", \"$1\", \"__name__\", \"(.+)\")";
      if (step < 2) {
        mark(
            backend.instantQuery("count" + by + "(changes(" + labelled + range + ") > 0)", timeMs),
            FamilyInfo.Activity.CHANGING,
            out);
      } else {
        // "some value is not 0" as one subquery: max_over_time of abs, not max != 0 or min != 0;
        // NaN is skipped by both unless every value is NaN, and then both say "not 0"
        mark(
            backend.instantQuery(
                "count" + by + "(max_over_time(abs(" + labelled + ")" + range + ") != 0)", timeMs),
            FamilyInfo.Activity.FLAT,
            out);
      }
      pending = undecided(pending, out);
    }
    return out;
  }

  /**
   * The selector of one step: the names of the pending pairs' families (step 0 without buckets,
   * step 1 only buckets, step 2 all), on their targets' instances when every one has one (a
   * superset of the pairs' series: a mark only raises a pair, and the pairs that are not pending
   * are CHANGING already); null when no name is left.
   */
  private String selector(
      Set<String> names,
      Map<String, Set<String>> pending,
      Map<String, String> instances,
      int step) {
    Set<String> families = new TreeSet<>();
    pending.values().forEach(families::addAll);
    Set<String> selected = new TreeSet<>();
    for (String n : names) {
      boolean bucket = n.endsWith("_bucket");
      if ((step == 2 || bucket == (step == 1)) && families.contains(familyOf.apply(n))) {
        selected.add(n);
      }
    }
    if (selected.isEmpty()) {
      return null;
    }
    StringBuilder sb = new StringBuilder("{__name__=~\"").append(String.join("|", selected));
    Set<String> on = new TreeSet<>();
    for (String key : pending.keySet()) {
      String instance = instances.get(key);
      if (instance == null) {
        on = null;
        break;
      }
      on.add(quote(instance));
    }
    if (on != null && step > 0) {
      sb.append("\", instance=~\"").append(String.join("|", on));
    }
    return sb.append("\"}").toString();
  }

  /** The pairs of {@code pending} that are not CHANGING yet. */
  private static Map<String, Set<String>> undecided(
      Map<String, Set<String>> pending, Map<String, FamilyInfo.Activity> found) {
    Map<String, Set<String>> out = new HashMap<>();
    pending.forEach(
        (key, families) -> {
          for (String f : families) {
            if (found.get(key + "|" + f) != FamilyInfo.Activity.CHANGING) {
              out.computeIfAbsent(key, k -> new TreeSet<>()).add(f);
            }
          }
        });
    return out;
  }

  /** A label value as an RE2 literal inside a PromQL double-quoted string. */
  static String quote(String value) {
    StringBuilder re = new StringBuilder();
    for (char c : value.toCharArray()) {
      if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
        re.append('\\');
      }
      re.append(c);
    }
    return re.toString().replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private void mark(QueryResult r, FamilyInfo.Activity a, Map<String, FamilyInfo.Activity> out) {
    if (!(r.value() instanceof Vector)) {
      return;
    }
    for (Sample s : ((Vector) r.value()).samples()) {
      String family = familyOf.apply(s.labels().get(NAME));
      if (family != null) {
        out.merge(
            StoredInventory.key(s.labels()) + "|" + family,
            a,
            (x, y) -> x.compareTo(y) >= 0 ? x : y);
      }
    }
  }
}
