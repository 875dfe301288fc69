package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.sglang.SglangRelease;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.vllm.VllmRelease;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * infermon's own exports (the dashboard as Grafana JSON, the default alert pack as a rule file and
 * as a PrometheusRule) lint clean. Generated for a fleet ({@code infermon export --endpoint}), they
 * get neither an error nor a warning against that fleet, for every simulated fleet and every real
 * capture replayed alone, fleets with each router in front included. Generated without a fleet
 * (every engine, release and spelling), they lint clean against the catalog and against every kind
 * of simulated fleet, inventoried as a live scrape, but for the true warnings of optional features
 * the fleet does not set and of later releases than it runs; against one real capture replayed
 * alone, a single release, what they name for later releases is empty, truly (the server's {@code
 * CaptureGoldenTest} pins those findings per capture, reviewed). What infermon tells users to run
 * must pass what infermon tells users to check; the default TTFT alert's threshold included.
 */
class ExportsLintTest {
  static final ExportService EXPORTS = new ExportService(Catalog.builtIn());

  /**
   * The fleets: one per way the simulator can serve an engine, SGLang behind its gateway ({@code
   * sglang_}) included, beside direct SGLang pods and alone, and TGI, llama.cpp, TensorRT-LLM (its
   * three generations) and Triton each alone.
   */
  static final Map<String, FleetConfig> FLEETS =
      fleets(
          "defaults (SGLang direct and behind the gateway)",
          FleetConfig.defaults(),
          "SGLang behind the gateway only",
          FleetConfig.builder()
              .vllmPods(0)
              .legacyVllmPods(0)
              .dataParallelPods(0)
              .sglangPods(0)
              .sglangGatewayPods(2)
              .prefillDecode(false)
              .build(),
          "data-parallel and vLLM 0.11",
          SimulatedEndpoints.corpusFleet().toBuilder().sglangPods(1).build(),
          "SGLang direct with tensor parallelism and PD",
          FleetConfig.builder()
              .vllmPods(0)
              .legacyVllmPods(0)
              .dataParallelPods(0)
              .sglangPods(2)
              .sglangTensorParallel(2)
              .sglangGatewayPods(0)
              .prefillDecode(true)
              .build(),
          "vLLM 0.4.3 and current, saturated",
          FleetConfig.builder()
              .vllmPods(1)
              .legacyVllmPods(1)
              .legacyRelease(VllmRelease.V0_4_3)
              .sglangPods(0)
              .sglangGatewayPods(0)
              .prefillDecode(false)
              .scenario(Scenario.SATURATED)
              .build(),
          "with SM profiling fields",
          FleetConfig.builder().smProfilingFields(true).build(),
          "llm-d's EPP in front of the vLLM pair, smg's PD router in front of the SGLang pair",
          FleetConfig.builder()
              .vllmPods(0)
              .legacyVllmPods(0)
              .dataParallelPods(0)
              .sglangPods(1)
              .sglangGatewayPods(0)
              .prefillDecode(true)
              .routers(List.of(RouterKind.LLM_D, RouterKind.SMG))
              .build(),
          "SGLang 0.5.11 direct, behind the gateway and PD",
          FleetConfig.builder()
              .vllmPods(0)
              .legacyVllmPods(0)
              .dataParallelPods(0)
              .sglangPods(2)
              .sglangTensorParallel(2)
              .sglangGatewayPods(1)
              .prefillDecode(true)
              .sglangRelease(SglangRelease.V0_5_11)
              .build(),
          "TGI alone",
          alone().tgiPods(2).build(),
          "llama.cpp alone, one pod without --metrics",
          alone().llamacppPods(2).llamacppWithoutMetrics(1).build(),
          "TensorRT-LLM main, 1.3 and 1.0",
          alone().trtllmPods(3).trtllmRelease13(1).trtllmRelease10(1).build(),
          "Triton with the TensorRT-LLM backend",
          alone().tritonPods(2).build());

  /** Names and fleets, alternately, in their order. */
  private static Map<String, FleetConfig> fleets(Object... namesAndFleets) {
    Map<String, FleetConfig> out = new java.util.LinkedHashMap<>();
    for (int i = 0; i < namesAndFleets.length; i += 2) {
      out.put((String) namesAndFleets[i], (FleetConfig) namesAndFleets[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  /** A fleet without vLLM and SGLang pods, for one other engine's. */
  private static FleetConfigBuilder alone() {
    return FleetConfig.builder()
        .vllmPods(0)
        .legacyVllmPods(0)
        .dataParallelPods(0)
        .sglangPods(0)
        .sglangGatewayPods(0)
        .prefillDecode(false);
  }

  /**
   * Fleets with a router in front of the engines ({@code --router}): their exports hold the router
   * level, one query per router the fleet has, and lint clean against the fleet as every other.
   */
  static final Map<String, FleetConfig> ROUTER_FLEETS =
      Map.of(
          "production-stack in front of vLLM",
          routed(RouterKind.PRODUCTION_STACK, false),
          "llm-d's EPP in front of the pods and the prefill/decode pairs",
          routed(RouterKind.LLM_D, true),
          "SGLang Model Gateway in front of SGLang",
          routed(RouterKind.SMG, false));

  private static FleetConfig routed(RouterKind router, boolean prefillDecode) {
    return FleetConfig.builder()
        .vllmPods(2)
        .legacyVllmPods(0)
        .dataParallelPods(0)
        .sglangPods(2)
        .sglangGatewayPods(0)
        .prefillDecode(prefillDecode)
        .router(router)
        .build();
  }

  static Map<String, String> exports() {
    return Map.of(
        "grafana.json",
        EXPORTS.grafana(List.of()),
        "default-alerts.yml",
        EXPORTS.rules(List.of(), LlmConfig.Alerts.DEFAULT),
        "prometheusrule.yaml",
        EXPORTS.prometheusRule(null, "monitoring", List.of(), LlmConfig.Alerts.DEFAULT));
  }

  static Stream<Arguments> exportsAndFleets() {
    Stream.Builder<Arguments> out = Stream.builder();
    for (Map.Entry<String, String> e : exports().entrySet()) {
      out.add(Arguments.of(e.getKey(), "the catalog", e.getValue(), null));
      for (Map.Entry<String, FleetConfig> f : FLEETS.entrySet()) {
        out.add(Arguments.of(e.getKey(), f.getKey(), e.getValue(), f.getValue()));
      }
    }
    return out.build();
  }

  @ParameterizedTest(name = "{0} against {1}")
  @MethodSource("exportsAndFleets")
  void exportsLintClean(String file, String against, String text, Object endpoints) {
    Reference ref;
    if (endpoints instanceof FleetConfig) {
      ref =
          Reference.of(
              Catalog.builtIn(),
              SimulatedEndpoints.inventory((FleetConfig) endpoints, Duration.ofMinutes(10)),
              Reference.Mode.LIVE);
    } else {
      ref = Reference.catalogOnly(Catalog.builtIn());
    }
    LintResult r = new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.file(file, text)));
    assertThat(r.queries()).as("%s has queries", file).isPositive();
    assertThat(r.findings())
        .as("%s against %s", file, against)
        .allSatisfy(ExportsLintTest::noTrafficYet);
  }

  /**
   * Against each real capture replayed alone (Ray's {@code ray_vllm:}, NIM's unprefixed names,
   * SGLang, dcgm-exporter), whatever else a single old release makes true, no export names a family
   * in a spelling the capture's engine does not use: the exports read every spelling.
   */
  @ParameterizedTest(name = "{0} against {1}")
  @MethodSource("exportsAndCaptures")
  void exportsFollowEveryCapturesSpelling(String file, String capture, String text) {
    Reference ref = SimulatedEndpoints.captureReference(List.of(Captures.get(capture)));
    LintResult r = new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.file(file, text)));
    assertThat(r.queries()).isPositive();
    assertThat(r.findings())
        .as("%s against %s", file, capture)
        .noneMatch(f -> f.check() == CheckId.PREFIX_SPELLING);
  }

  /**
   * Against each real capture replayed alone, no export gets an error, and every warning is true of
   * the capture, not of the export. A single capture is one release, often an old one, so what the
   * exports read for later releases is empty: {@code added-later}, with the upgrade. Besides, true
   * by design, each with the capture that makes it true:
   *
   * <ul>
   *   <li>optional features the fleet does not set ({@link #OPTIONAL_FEATURES}), a dcgm field
   *       behind the exporter's counters CSV (neither dcgm capture lists the profiling fields) and,
   *       as an info, one of hardware the GPU lacks (NVLink on the PCIe L40S);
   *   <li>on the {@code TRUNCATED} and {@code EXCERPT} captures, families missing although a
   *       sibling their writer writes with them is there: the pages are cut, as their names say;
   *   <li>on NVIDIA NIM's page, the families of vLLM that NIM's fixed subset lacks: the exports
   *       read them in vLLM's own spellings (right for vLLM pods), and never in NIM's;
   *   <li>infos that a family created on first use has no samples yet.
   * </ul>
   */
  @ParameterizedTest(name = "{0} against {1}")
  @MethodSource("exportsAndCaptures")
  void exportsLintWithoutErrorsAgainstEveryCapture(String file, String capture, String text) {
    Reference ref = SimulatedEndpoints.captureReference(List.of(Captures.get(capture)));
    LintResult r = new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.file(file, text)));
    assertThat(r.queries()).isPositive();
    assertThat(r.findings())
        .as("%s against %s", file, capture)
        .allSatisfy(f -> trueOfTheCapture(f, capture));
  }

  private static void trueOfTheCapture(Finding f, String capture) {
    assertThat(f.severity()).as("%s", f).isNotEqualTo(Severity.ERROR);
    switch (f.check()) {
      case ADDED_LATER -> assertThat(f.fix()).as("%s", f).startsWith("upgrade ");
      case CONDITIONAL_METRIC_OFF -> {
        if (f.severity() == Severity.WARNING && !f.message().contains("behind the counters CSV")) {
          assertThat(OPTIONAL_FEATURES).as("%s", f).anyMatch(flag -> f.message().contains(flag));
        }
      }
      case UNKNOWN_METRIC -> {
        if (f.severity() == Severity.INFO) {
          assertThat(f.message()).as("%s", f).contains("on first use");
        } else if (f.message().startsWith("NVIDIA NIM does not expose")) {
          assertThat(capture).as("%s", f).startsWith("nim-");
        } else {
          assertThat(f.message()).as("%s", f).contains("the pages are incomplete");
          assertThat(capture).as("%s", f).containsAnyOf("TRUNCATED", "EXCERPT");
        }
      }
      default -> throw new AssertionError("not true of the capture alone: " + f);
    }
  }

  /**
   * The exports generated for a fleet ({@code infermon export --endpoint}, {@link
   * ExportService#grafana(Inventory)}) lint without an error or a warning against that fleet, for
   * every simulated fleet and every real capture replayed alone: they read only what the targets'
   * releases, spellings and features expose. The infos left are true of the fleet: a family created
   * on first use has no samples yet, a dcgm field of hardware the GPU lacks.
   */
  @ParameterizedTest(name = "{0} for and against {1}")
  @MethodSource("exportsForFleets")
  void exportsForTheFleetLintCleanAgainstIt(String file, String fleet, Inventory inventory) {
    Reference ref = Reference.of(Catalog.builtIn(), inventory, Reference.Mode.LIVE);
    String text = forFleet(inventory).get(file);
    LintResult r = new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.file(file, text)));
    // the dashboard reads GPUs by the inference pods they serve: none for dcgm alone; the vLLM
    // excerpt holds one gauge (KV usage), none of the TTFT, queue and request families the pack
    // reads
    boolean reads =
        inventory.engines().stream().anyMatch(e -> !Catalog.builtIn().isGpuExporter(e))
            && !(fleet.contains("EXCERPT") && !file.equals("grafana.json"));
    if (reads) {
      assertThat(r.queries()).as("%s for %s has queries", file, fleet).isPositive();
    }
    assertThat(r.findings()).as("%s for %s", file, fleet).allSatisfy(ExportsLintTest::trueInfo);
  }

  /** An info that is true of any fleet it is reported on; never a warning or an error. */
  private static void trueInfo(Finding f) {
    assertThat(f.severity()).as("%s", f).isEqualTo(Severity.INFO);
    switch (f.check()) {
      case UNKNOWN_METRIC -> assertThat(f.message()).as("%s", f).contains("on first use");
      case CONDITIONAL_METRIC_OFF ->
          assertThat(f.message()).as("%s", f).contains("exists only on GPUs with");
      default -> throw new AssertionError("not an info true of the fleet: " + f);
    }
  }

  static Map<String, String> forFleet(Inventory inventory) {
    return Map.of(
        "grafana.json",
        EXPORTS.grafana(inventory),
        "default-alerts.yml",
        EXPORTS.rules(inventory, LlmConfig.Alerts.DEFAULT),
        "prometheusrule.yaml",
        EXPORTS.prometheusRule(null, "monitoring", inventory, LlmConfig.Alerts.DEFAULT));
  }

  static Stream<Arguments> exportsForFleets() {
    Stream.Builder<Arguments> out = Stream.builder();
    for (String file : exports().keySet()) {
      Map<String, FleetConfig> fleets = new java.util.LinkedHashMap<>(FLEETS);
      fleets.putAll(ROUTER_FLEETS);
      for (Map.Entry<String, FleetConfig> f : fleets.entrySet()) {
        out.add(
            Arguments.of(
                file,
                f.getKey(),
                SimulatedEndpoints.inventory(f.getValue(), Duration.ofMinutes(10))));
      }
      for (Captures.Entry c : Captures.all()) {
        out.add(
            Arguments.of(
                file, c.fileName(), SimulatedEndpoints.captureReference(List.of(c)).inventory()));
      }
    }
    return out.build();
  }

  static Stream<Arguments> exportsAndCaptures() {
    Stream.Builder<Arguments> out = Stream.builder();
    for (Map.Entry<String, String> e : exports().entrySet()) {
      for (Captures.Entry c : Captures.all()) {
        out.add(Arguments.of(e.getKey(), c.fileName(), e.getValue()));
      }
    }
    return out.build();
  }

  /**
   * The flags of optional engine features the exported dashboard carries panels for: against a
   * fleet that does not set one, lint's warning that those panels stay empty is true, and the only
   * warning an export may get.
   */
  static final List<String> OPTIONAL_FEATURES =
      List.of(
          "--speculative-config",
          "speculative decoding (speculative_config)",
          "--enable-lora",
          "--enable-mfu-metrics",
          "--collect-tokens-histogram",
          "--kv-cache-metrics",
          "--kv-transfer-config");

  /**
   * The findings allowed: a warning that a panel of an optional feature the fleet does not set
   * stays empty ({@link #OPTIONAL_FEATURES}), a warning that a family of a later release than the
   * fleet runs is empty, with the upgrade (the simulator's llama.cpp is 2025-10, the catalog's
   * newest 2026-08), and an info that a family SGLang creates on first use has no samples yet (no
   * retraction, no prefill stage timed in ten simulated minutes). They are about the fleet, not the
   * export, and say so: nothing to fix.
   */
  private static void noTrafficYet(Finding f) {
    if (f.check() == CheckId.ADDED_LATER) {
      // a fleet of an engine the simulator serves in an older release than the catalog's newest
      // (llama.cpp 2025-10): what the export reads for later releases is empty there, truly
      assertThat(f.severity()).as("%s", f).isEqualTo(Severity.WARNING);
      assertThat(f.fix()).as("%s", f).startsWith("upgrade ");
      return;
    }
    if (f.check() == CheckId.CONDITIONAL_METRIC_OFF) {
      assertThat(f.severity()).as("%s", f).isEqualTo(Severity.WARNING);
      assertThat(OPTIONAL_FEATURES).as("%s", f).anyMatch(flag -> f.message().contains(flag));
      return;
    }
    assertThat(f.severity()).as("%s", f).isEqualTo(Severity.INFO);
    assertThat(f.check()).as("%s", f).isEqualTo(CheckId.UNKNOWN_METRIC);
    assertThat(f.message()).as("%s", f).contains("on first use");
  }
}
