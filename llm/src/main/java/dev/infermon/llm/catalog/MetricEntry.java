package dev.infermon.llm.catalog;

import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.List;

/**
 * One metric family of one engine as the catalog records it. {@link #name} is the exposed family
 * name without the engine prefix: counters carry {@code _total} as on the wire; a histogram's
 * series add {@code _bucket}, {@code _sum} and {@code _count}.
 *
 * @param engine the engine ({@code vllm}, {@code sglang}, {@code dcgm})
 * @param name the family name without prefix
 * @param type counter, gauge, histogram or summary: what the value is
 * @param declaredType what the page's TYPE line says, when it says otherwise (llama.cpp types its
 *     lifetime average and its high watermark {@code counter}); else {@code type}
 * @param unit what the value measures ({@code tokens}, {@code seconds}, {@code ratio}, ...)
 * @param labels the labels, each with the releases that have it
 * @param openLabels whether other labels may appear too (info gauges whose labels are config
 *     fields)
 * @param since first release with the metric
 * @param history deprecation, hiding, removal and renames
 * @param condition when it exists
 * @param buckets bucket bounds by release (histograms only)
 * @param lazy whether the family shows samples only once observed (SGLang's multiprocess families),
 *     so its absence on a healthy target may just mean no traffic yet
 * @param versionEvidence whether its presence narrows the release (false for generic families)
 * @param prefixless whether the name is exposed without the engine prefix ({@code http_*})
 * @param note what a user of the metric must know
 * @param avoid why the metric must not be used and what to use instead, or null when it may be
 * @param notOnRoles prefill/decode roles whose servers never write the family, each with why (an
 *     SGLang prefill server never observes TTFT): a panel's reason there says so rather than
 *     calling the page incomplete
 * @param cite where the facts come from
 */
public record MetricEntry(
    String engine,
    String name,
    MetricType type,
    MetricType declaredType,
    String unit,
    List<LabelSpec> labels,
    boolean openLabels,
    ReleaseLine since,
    History history,
    Condition condition,
    List<BucketSpec> buckets,
    boolean lazy,
    boolean versionEvidence,
    boolean prefixless,
    String note,
    Avoidance avoid,
    java.util.Map<String, String> notOnRoles,
    String cite) {
  public MetricEntry {
    notOnRoles = java.util.Map.copyOf(notOnRoles);
    declaredType = declaredType == null ? type : declaredType;
    labels = List.copyOf(labels);
    buckets = List.copyOf(buckets);
    if (since == null || history == null || condition == null) {
      throw new IllegalArgumentException(name + ": since, history and condition are required");
    }
    if (cite == null || cite.isBlank()) {
      throw new IllegalArgumentException(name + ": every entry cites its source");
    }
    if ((type == MetricType.HISTOGRAM) != !buckets.isEmpty()) {
      throw new IllegalArgumentException(
          name + ": buckets are given for histograms, and only them");
    }
  }

  /** Whether the family exists in release {@code v} (hidden ones included). */
  public boolean existsIn(ReleaseLine v) {
    return v.atLeast(since) && v.before(history.removed());
  }

  /** Whether the family is shown by default in release {@code v}. */
  public boolean exposedIn(ReleaseLine v) {
    return v.atLeast(since) && v.before(history.goneFrom());
  }

  /** The labels a series has in release {@code v}. */
  public List<LabelSpec> labelsIn(ReleaseLine v) {
    List<LabelSpec> out = new ArrayList<>();
    for (LabelSpec l : labels) {
      if (l.in(v)) {
        out.add(l);
      }
    }
    return out;
  }

  /** The bucket specs that apply in release {@code v}. */
  public List<BucketSpec> bucketsIn(ReleaseLine v) {
    List<BucketSpec> out = new ArrayList<>();
    for (BucketSpec b : buckets) {
      if (b.in(v)) {
        out.add(b);
      }
    }
    return out;
  }

  /** The family name under {@code variant}. */
  public String familyName(NameVariant variant) {
    return prefixless ? name : variant.familyName(name);
  }

  /** The sample names the family exposes under {@code variant}. */
  public List<String> sampleNames(NameVariant variant) {
    String f = familyName(variant);
    if (type == MetricType.HISTOGRAM) {
      return List.of(f + "_bucket", f + "_sum", f + "_count");
    }
    if (type == MetricType.SUMMARY) {
      return List.of(f, f + "_sum", f + "_count");
    }
    return List.of(f);
  }
}
