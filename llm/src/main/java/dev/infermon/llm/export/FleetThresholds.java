package dev.infermon.llm.export;

import dev.infermon.llm.catalog.BucketBounds;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseBounds;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TTFT threshold the alert pack compares each engine's quantile with on a known fleet: the
 * configured one where it is a bucket bound of every target's TTFT histogram, else the largest
 * bound at or under it that every target's has. vLLM 0.4-0.7, and NVIDIA NIM, stop time to first
 * token at 10 s: a quantile over such a pod is at most 10, so {@code > 20} never fires there, and a
 * quantile over buckets summed by {@code le} across two bucket sets is measured only at the bounds
 * they share. Compared ({@code >=}: the quantile of a pod whose buckets stop there is that bound
 * when it lies above them) with the common bound, the alert fires on every breach of the configured
 * threshold, earlier on the pods whose buckets cannot tell (their slow requests between the two
 * bounds count), rather than never on them. The buckets are those the target's page shows, else the
 * catalog's in its detected releases. Stateless.
 */
final class FleetThresholds {
  private FleetThresholds() {}

  /**
   * The threshold per engine (by key) where it differs from {@code seconds}; an engine whose
   * targets all have it as a bound, or share no bound under it, is not in the map.
   */
  static Map<String, Double> ttft(Catalog catalog, Inventory inventory, double seconds) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (EngineCatalog e : catalog.engines()) {
      List<List<Double>> sets = new ArrayList<>();
      for (TargetInventory t : inventory.targets()) {
        if (t.engine().equals(e.engine())) {
          sets.addAll(ttftBounds(e, t));
        }
      }
      boolean everywhere = true;
      for (List<Double> b : sets) {
        everywhere &= BucketBounds.place(seconds, b).onBound();
      }
      if (everywhere) {
        continue;
      }
      ReleaseBounds.commonBoundAtOrBelow(sets, seconds).ifPresent(b -> out.put(e.engine(), b));
    }
    return out;
  }

  /** The bucket sets of a target's TTFT histograms: seen on its page, else the catalog's. */
  private static List<List<Double>> ttftBounds(EngineCatalog e, TargetInventory t) {
    Optional<NameVariant> v =
        e.variants().stream().filter(x -> x.prefix().equals(t.detection().prefix())).findFirst();
    List<List<Double>> out = new ArrayList<>();
    if (v.isEmpty()) {
      return out;
    }
    for (SignalSource src : e.sources(Signal.TTFT)) {
      for (String metric : src.metrics()) {
        List<MetricEntry> entries = e.entries(metric);
        if (entries.isEmpty() || !e.serves(v.get(), metric)) {
          continue;
        }
        FamilyInfo f = t.families().get(entries.get(0).familyName(v.get()));
        if (f != null && !f.bounds().isEmpty()) {
          out.add(f.bounds());
        } else if (f != null && t.detection().versions() != null) {
          ReleaseBounds.runs(e, entries, t.detection().versions())
              .forEach(r -> out.add(r.bounds()));
        }
      }
    }
    return out;
  }
}
