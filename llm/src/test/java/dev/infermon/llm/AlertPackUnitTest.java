package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.BucketBounds;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.llm.export.AlertRule;
import dev.infermon.llm.signals.Signal;
import dev.infermon.rules.testing.RuleUnitFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The default alert pack as {@code infermon serve} loads it (generated from the catalog for every
 * engine, default thresholds) against promtool-format rule unit tests ({@code
 * src/test/resources/alert-pack-unit}): the generated file is written beside the tests, which name
 * it {@code default-alerts.yml}, and each test passes under infermon's runner and, when {@code
 * /usr/bin/promtool} is installed, under the real {@code promtool test rules} (2.42).
 */
class AlertPackUnitTest {
  static final Path CORPUS = Path.of("src/test/resources/alert-pack-unit");

  @TempDir static Path dir;

  @BeforeAll
  static void generate() throws IOException {
    String pack =
        AlertPack.ruleFile(
            Catalog.builtIn(), new LinkedHashSet<>(Catalog.ENGINES), LlmConfig.Alerts.DEFAULT);
    Files.writeString(dir.resolve("default-alerts.yml"), pack);
    for (Path test : corpusFiles()) {
      Files.copy(test, dir.resolve(test.getFileName()));
    }
  }

  static List<Path> corpusFiles() throws IOException {
    return RuleUnitFiles.in(CORPUS);
  }

  static Stream<String> tests() throws IOException {
    return corpusFiles().stream().map(p -> p.getFileName().toString());
  }

  @Test
  void everyAlertOfThePackIsExercisedFiringAndNotFiring() throws IOException {
    // with the rules module's 16 files, the project keeps at least 20 promtool-compatible ones
    assertThat(corpusFiles()).hasSizeGreaterThanOrEqualTo(4);
    Set<String> tested = new LinkedHashSet<>();
    for (Path f : corpusFiles()) {
      String text = Files.readString(f);
      for (String line : text.split("\n")) {
        String t = line.trim();
        if (t.startsWith("alertname: ")) {
          tested.add(t.substring("alertname: ".length()));
        }
      }
      assertThat(text).as(f + " has a quiet and a firing evaluation").contains("exp_alerts: []");
      assertThat(text).as(f.toString()).contains("exp_labels:");
    }
    List<String> alerts =
        AlertPack.rules(Catalog.builtIn(), Set.copyOf(Catalog.ENGINES), LlmConfig.Alerts.DEFAULT)
            .stream()
            .map(AlertRule::alert)
            .distinct()
            .toList();
    assertThat(alerts)
        .containsExactly(
            "LLMTimeToFirstTokenHigh",
            "LLMRequestsQueuedWhilePreempting",
            "LLMRequestsWaitingForSlot",
            "LLMRequestFailuresHigh",
            "LLMRouterQueueGrowing");
    assertThat(tested).containsExactlyInAnyOrderElementsOf(alerts);
  }

  /**
   * The waiting-for-a-slot rule tells what to raise for every engine it reads, in that engine's own
   * terms: NVIDIA NIM's vLLM flag through {@code nim-serve}, not "raise how many requests a replica
   * runs at once" alone (NIM is a spelling of vLLM, whose own flags the engine catalog does not
   * list, since vLLM preempts and the other rule covers it).
   */
  @Test
  void theWaitingForSlotRuleNamesEachEnginesConcurrencyFlag() {
    String description =
        AlertPack.rules(Catalog.builtIn(), Set.copyOf(Catalog.ENGINES), LlmConfig.Alerts.DEFAULT)
            .stream()
            .filter(r -> r.alert().equals("LLMRequestsWaitingForSlot"))
            .findFirst()
            .orElseThrow()
            .annotations()
            .get("description");
    assertThat(description)
        .contains("NVIDIA NIM: nim-serve --max-num-seqs")
        .contains("llama-server --parallel")
        .contains("text-generation-launcher --max-batch-size")
        .contains("trtllm-serve --max_batch_size");
  }

  /**
   * The TTFT quantile is computed per engine and compared with the threshold: the default must be a
   * bucket bound of the TTFT histogram of every engine the pack's TTFT rule reads, in its newest
   * release, or that engine's quantile is interpolated at the threshold instead of measured there.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("ttftHistograms")
  void defaultTtftThresholdIsABucketBoundOfEachEngine(String engine) {
    EngineCatalog e = Catalog.builtIn().engine(engine);
    String family = e.sources(Signal.TTFT).get(0).metrics().get(0);
    MetricEntry entry = e.entry(family, e.newest()).orElseThrow();
    List<Double> bounds = BucketBounds.catalogBounds(entry, e.newest()).orElseThrow();
    double threshold = LlmConfig.Alerts.DEFAULT.ttftThreshold().toMillis() / 1000.0;
    assertThat(BucketBounds.place(threshold, bounds).onBound())
        .as("%s in %s", threshold, bounds)
        .isTrue();
  }

  /**
   * Every engine whose TTFT the default pack's rule reads: a TTFT source whose family is a
   * histogram with bounds the catalog fixes (the rule's quantile needs buckets).
   */
  static List<String> ttftHistograms() {
    List<String> out = new java.util.ArrayList<>();
    for (EngineCatalog e : Catalog.builtIn().engines()) {
      if (e.sources(Signal.TTFT).isEmpty()) {
        continue;
      }
      String family = e.sources(Signal.TTFT).get(0).metrics().get(0);
      e.entry(family, e.newest())
          .flatMap(m -> BucketBounds.catalogBounds(m, e.newest()))
          .filter(b -> !b.isEmpty())
          .ifPresent(b -> out.add(e.engine()));
    }
    return out;
  }

  /** The engines are read from the catalog, so an engine added with a TTFT histogram is checked. */
  @Test
  void everyEngineWithATtftHistogramIsChecked() {
    assertThat(ttftHistograms()).containsExactly("vllm", "sglang", "trtllm");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tests")
  void passesUnderInfermon(String name) {
    RuleUnitFiles.assertPassesUnderInfermon(dir.resolve(name));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tests")
  void passesUnderPromtool(String name) throws Exception {
    RuleUnitFiles.assertPassesUnderPromtool(dir.resolve(name));
  }
}
