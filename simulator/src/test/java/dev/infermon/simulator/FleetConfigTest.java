package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.simulator.vllm.VllmRelease;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Fleet configs validate their fields, and the default fleet has every kind of target. */
class FleetConfigTest {
  static Stream<Arguments> badConfigs() {
    return Stream.<Arguments>of(
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>) b -> b.vllmPods(-1),
            "vllmPods must be >= 0, got -1"),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>) b -> b.vllmPods(1).dataParallelPods(2),
            "dataParallelPods (2) exceeds vllmPods (1)"),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>)
                b -> b.vllmPods(2).dataParallelPods(1).lmcachePods(2),
            "lmcachePods must be at most the single-engine vLLM pods (1), got 2"),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>) b -> b.sglangTensorParallel(0),
            "sglangTensorParallel must be in [1, 8], got 0"),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>) b -> b.gpusPerNode(0),
            "gpusPerNode must be in [1, 16], got 0"),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>) b -> b.models(List.of()),
            "at least one model is needed"),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>) b -> b.namespace("Bad_NS"),
            "namespace is not a DNS label: \"Bad_NS\""),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>) b -> b.legacyRelease(VllmRelease.V1_CURRENT),
            "legacyRelease must be an older release, got v1-current"),
        Arguments.of(
            (UnaryOperator<FleetConfigBuilder>)
                b ->
                    b.vllmPods(0)
                        .legacyVllmPods(0)
                        .sglangPods(0)
                        .sglangGatewayPods(0)
                        .prefillDecode(false),
            "the fleet has no inference pod"));
  }

  @ParameterizedTest
  @MethodSource("badConfigs")
  void badConfigsNameTheField(UnaryOperator<FleetConfigBuilder> edit, String message) {
    assertThatThrownBy(() -> edit.apply(FleetConfig.builder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void tooFewNodesIsACallerMistake() {
    FleetConfig c = FleetConfig.builder().nodes(1).build();
    assertThatThrownBy(() -> Fleet.create(c, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--nodes 1 x 8 GPUs cannot hold");
  }

  @Test
  void theDefaultFleetHasEveryKindOfTarget() {
    Fleet f = Fleet.create(FleetConfig.defaults(), 0);
    List<PodInfo> inv = f.inventory();
    assertThat(inv)
        .extracting(p -> p.backend().label())
        .contains("vllm", "sglang", "vllm-pd", "sglang-pd", "dcgm");
    assertThat(inv).extracting(PodInfo::engine).contains("sglang-gateway");
    assertThat(inv).extracting(PodInfo::version).contains("0.24+", "0.11", "0.5.9");
    assertThat(inv).filteredOn(p -> p.dataParallel() == 2).hasSize(1);
    assertThat(inv)
        .filteredOn(p -> !p.role().isEmpty())
        .extracting(PodInfo::role)
        .containsExactly("prefill", "decode", "prefill", "decode");
    assertThat(inv)
        .extracting(PodInfo::model)
        .contains(
            ModelProfile.LLAMA_8B.name(),
            ModelProfile.QWEN_32B.name(),
            ModelProfile.LLAMA_70B.name());
    int podGpus =
        inv.stream().filter(p -> p.backend() != Backend.DCGM).mapToInt(PodInfo::gpus).sum();
    int allGpus =
        inv.stream().filter(p -> p.backend() == Backend.DCGM).mapToInt(PodInfo::gpus).sum();
    assertThat(allGpus).as("some GPUs stay unattributed").isGreaterThan(podGpus);
    assertThat(inv.stream().map(PodInfo::name).distinct().count()).isEqualTo(inv.size());
  }

  @Test
  void enginesKeepsThePodsOfTheListedEnginesEachWithOne() {
    FleetConfig all = FleetConfig.builder().engines(Backend.engines()).build();
    Fleet fleet = Fleet.create(all, 0);
    for (Backend b : Backend.engines()) {
      assertThat(fleet.inventory()).as(b.label()).anyMatch(p -> p.backend() == b);
    }
    assertThat(fleet.inventory()).anyMatch(p -> p.backend() == Backend.VLLM_PD);
    assertThat(fleet.inventory()).anyMatch(p -> p.backend() == Backend.SGLANG_PD);
    // every TensorRT-LLM page the simulator serves: the current one, 1.3's "undefined" one and
    // 1.0's unprefixed one
    assertThat(
            fleet.inventory().stream()
                .filter(p -> p.backend() == Backend.TRTLLM)
                .map(PodInfo::version)
                .toList())
        .containsExactlyInAnyOrder("main", "1.3", "1.0");
    FleetConfig three = FleetConfig.builder().trtllmPods(3).engines(Backend.engines()).build();
    assertThat(three.trtllmPods()).as("a count already set is kept").isEqualTo(3);
    assertThat(three.trtllmRelease13()).isZero();
    assertThat(three.trtllmRelease10()).isZero();
    assertThatThrownBy(
            () -> FleetConfig.builder().trtllmPods(2).trtllmRelease13(1).trtllmRelease10(2).build())
        .hasMessage("trtllmRelease13 + trtllmRelease10 (1 + 2) exceeds trtllmPods (2)");

    FleetConfig tgi = FleetConfig.builder().engines(List.of(Backend.TGI)).build();
    assertThat(Fleet.create(tgi, 0).inventory())
        .allMatch(p -> p.backend() == Backend.TGI || p.backend() == Backend.DCGM)
        .anyMatch(p -> p.backend() == Backend.TGI);
  }

  @Test
  void enginesRefusesWhatIsNoEngine() {
    assertThatThrownBy(() -> FleetConfig.builder().engines(List.of(Backend.DCGM)))
        .hasMessage("not a simulated engine: dcgm");
    assertThatThrownBy(() -> FleetConfig.builder().engines(List.of()))
        .hasMessage("engines must name at least one engine");
    List<String> known = Backend.engines().stream().map(Backend::label).toList();
    assertThat(known).doesNotContain("vllm-pd", "sglang-pd", "dcgm", "llm-d");
    assertThatThrownBy(() -> Backend.engine("vllm-pd"))
        .hasMessage("unknown engine \"vllm-pd\" (one of " + String.join(", ", known) + ", or all)");
    assertThat(Backend.engine(" TGI ")).isEqualTo(Backend.TGI);
  }
}
