package dev.infermon.llm.export;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.catalog.Spelling;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The query behind the exported dashboard's {@code $model} variable. {@code
 * label_values(model_name)} would miss every engine whose page names no model (llama.cpp's {@code
 * llamacpp:*} carry no labels, Triton's {@code model} is a repository entry) and offer the
 * placeholders that name none (TensorRT-LLM's {@code "undefined"}): the panels read those engines'
 * model from the catalog's {@code model_from_label} ({@code workload_name}, which inference
 * discovery gives every target), so the variable lists it from there too, through a {@code
 * query_result} whose regex keeps the {@code model_name} the branches produce. Stateless.
 */
final class ModelVariable {
  /** Picks the model out of a {@code query_result} line ({@code {model_name="m"} 1 1700000000}). */
  static final String REGEX = "/model_name=\"([^\"]+)\"/";

  private ModelVariable() {}

  /** The variable's query for the engines of {@code spellings}. */
  static String query(Catalog catalog, Set<Spelling> spellings) {
    Map<String, List<Spelling>> byEngine = new LinkedHashMap<>();
    for (Spelling s : spellings) {
      byEngine.computeIfAbsent(s.engine(), k -> new ArrayList<>()).add(s);
    }
    // a placeholder names no model; "" is one for every engine (a series without model_name)
    Set<String> placeholders = new TreeSet<>(Set.of(""));
    List<String> branches = new ArrayList<>();
    for (Map.Entry<String, List<Spelling>> e : byEngine.entrySet()) {
      EngineCatalog engine = catalog.engine(e.getKey());
      if (engine.modelFromLabel().isEmpty()) {
        continue;
      }
      engine.modelPlaceholder().ifPresent(placeholders::add);
      List<String> names = names(engine, e.getValue());
      if (!names.isEmpty()) {
        branches.add(branch(engine, names));
      }
    }
    List<String> all = new ArrayList<>();
    all.add("count by (model_name) ({model_name!~" + quote(alternatives(placeholders)) + "})");
    all.addAll(branches);
    return "query_result(" + String.join(" or ", all) + ")";
  }

  /**
   * One series name per family the engine's signals read in {@code spellings}: the series a target
   * of the engine writes whatever its flags, each carrying the target's labels.
   */
  private static List<String> names(EngineCatalog engine, List<Spelling> spellings) {
    Set<String> out = new LinkedHashSet<>();
    for (List<SignalSource> sources : engine.signals().values()) {
      for (SignalSource src : sources) {
        for (String metric : src.metrics()) {
          List<MetricEntry> entries = engine.entries(metric);
          if (entries.isEmpty()) {
            continue;
          }
          MetricEntry newest = entries.get(entries.size() - 1);
          for (Spelling s : spellings) {
            List<String> samples = s.sampleNames(newest);
            out.add(samples.get(samples.size() - 1)); // a histogram's _count, not its buckets
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** The engine's series named by its model label: all of them, or those with the placeholder. */
  private static String branch(EngineCatalog engine, List<String> names) {
    String selector = "{__name__=~" + quote(String.join("|", names));
    if (engine.modelPlaceholder().isPresent()) {
      selector += ", model_name=" + quote(engine.modelPlaceholder().get());
    }
    selector += "}";
    return "count by (model_name) (label_replace("
        + selector
        + ", \"model_name\", \"$1\", "
        + quote(engine.modelFromLabel())
        + ", \"(.+)\"))";
  }

  /** {@code values} as one anchored RE2 alternation of literals ({@code |undefined}). */
  private static String alternatives(Set<String> values) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      out.add(v.replaceAll("[\\\\.^$|?*+()\\[\\]{}]", "\\\\$0"));
    }
    return String.join("|", out);
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
