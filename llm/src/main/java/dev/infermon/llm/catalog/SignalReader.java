package dev.infermon.llm.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.infermon.llm.signals.Aggregation;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a catalog file's {@code signals} section: each signal's sources, checked against the file's
 * metric entries. Part of {@link CatalogLoader}.
 */
final class SignalReader {
  private final CatalogNodes nodes;

  SignalReader(CatalogNodes nodes) {
    this.nodes = nodes;
  }

  /** Each signal of {@code signals} with its sources, in the file's order. */
  Map<Signal, List<SignalSource>> read(JsonNode root, String engine, List<MetricEntry> metrics) {
    Map<Signal, List<SignalSource>> signals = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> sigs = root.path("signals").properties().iterator();
    while (sigs.hasNext()) {
      Map.Entry<String, JsonNode> s = sigs.next();
      String at = "signals." + s.getKey();
      Signal signal;
      try {
        signal = Signal.fromKey(s.getKey());
      } catch (IllegalArgumentException e) {
        throw nodes.fail(at, e.getMessage());
      }
      List<SignalSource> sources = new ArrayList<>();
      int j = 0;
      for (JsonNode src : s.getValue()) {
        sources.add(source(engine, signal, src, at + "[" + j++ + "]", metrics));
      }
      signals.put(signal, sources);
    }
    return signals;
  }

  /**
   * {@code not_exposed: {signal: {exposes, cite}}}: what the engine exposes in place of a signal it
   * has no source for (Triton's KV cache in blocks, not tokens), so the empty panel's reason says
   * it. A signal with sources cannot have one: the two would contradict.
   */
  Map<Signal, String> notExposed(JsonNode root, Map<Signal, List<SignalSource>> signals) {
    Map<Signal, String> out = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = root.path("not_exposed").properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String at = "not_exposed." + e.getKey();
      Signal signal;
      try {
        signal = Signal.fromKey(e.getKey());
      } catch (IllegalArgumentException ex) {
        throw nodes.fail(at, ex.getMessage());
      }
      if (!signals.getOrDefault(signal, List.of()).isEmpty()) {
        throw nodes.fail(at, "the signal has sources, so the engine exposes it");
      }
      nodes.checkKeys(e.getValue(), Set.of("exposes", "cite"), at);
      nodes.text(e.getValue(), "cite", at, true);
      out.put(signal, nodes.text(e.getValue(), "exposes", at, true));
    }
    return out;
  }

  private SignalSource source(
      String engine, Signal signal, JsonNode s, String at, List<MetricEntry> metrics) {
    nodes.checkKeys(
        s,
        Set.of(
            "metric",
            "metrics",
            "agg",
            "dedupe",
            "match",
            "by",
            "scale",
            "zero_when_absent",
            "since",
            "note",
            "value_labels",
            "model_from_pod",
            "series",
            "product"),
        at);
    List<String> names =
        s.has("metrics")
            ? CatalogNodes.strings(s.get("metrics"))
            : List.of(nodes.text(s, "metric", at, true));
    for (String n : names) {
      boolean known = false;
      for (MetricEntry m : metrics) {
        known |= m.name().equals(n);
      }
      if (!known) {
        throw nodes.fail(at, "signal source names unknown metric \"" + n + "\"");
      }
    }
    if (s.has("value_labels")
        && (!s.get("value_labels").isArray() || s.get("value_labels").isEmpty())) {
      throw nodes.fail(at + ".value_labels", "a list of label names is required");
    }
    Map<String, String> match = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = s.path("match").properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      match.put(e.getKey(), e.getValue().asText());
    }
    try {
      return new SignalSource(
          engine,
          signal,
          names,
          s.has("agg") ? Aggregation.parse(s.get("agg").asText()) : Aggregation.SUM,
          s.path("dedupe").asBoolean(false),
          match,
          CatalogNodes.strings(s.path("by")),
          s.path("scale").asDouble(1),
          s.path("zero_when_absent").asBoolean(false),
          nodes.release(s, "since", at),
          nodes.text(s, "note", at, false),
          CatalogNodes.strings(s.path("value_labels")),
          s.path("model_from_pod").asBoolean(false),
          series(signal, s, at, names, metrics),
          s.path("product").asBoolean(false));
    } catch (IllegalArgumentException e) {
      throw nodes.fail(at, e.getMessage());
    }
  }

  /**
   * The {@code series} of a source: only a counter signal read from histograms' {@code _sum} or
   * {@code _count}.
   */
  private String series(
      Signal signal, JsonNode s, String at, List<String> names, List<MetricEntry> metrics) {
    if (!s.has("series")) {
      return "";
    }
    String series = s.get("series").asText();
    if (signal.kind() != Signal.Kind.COUNTER) {
      throw nodes.fail(at, "series is for counter signals only, not " + signal.key());
    }
    for (MetricEntry m : metrics) {
      if (names.contains(m.name()) && m.type() != MetricType.HISTOGRAM) {
        throw nodes.fail(at, "series reads a histogram's samples; " + m.name() + " is not one");
      }
    }
    return series;
  }
}
