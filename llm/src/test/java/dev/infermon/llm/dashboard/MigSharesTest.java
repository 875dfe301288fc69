package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each dcgm series' share of its GPU, evaluated by the PromQL engine over hand-made series. */
class MigSharesTest {
  private static final long T = 1_780_000_000_000L;

  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource({
    // modelName, GPU_I_PROFILE, dra_mig_profile, share
    "NVIDIA H100 80GB HBM3, '', '', 1",
    "NVIDIA H100 80GB HBM3, 1g.10gb, '', 0.14285714285714285",
    "NVIDIA H100 80GB HBM3, 3g.40gb, '', 0.42857142857142855",
    "NVIDIA A100-SXM4-80GB, 7g.80gb, '', 1",
    "NVIDIA A30, 1g.6gb, '', 0.25",
    "NVIDIA A30, 2g.12gb+me, '', 0.5",
    "NVIDIA RTX PRO 5000 Blackwell, 1g.24gb, '', 0.5",
    "NVIDIA H200, '', 2g.35gb, 0.2857142857142857",
    "NVIDIA L40S, '', '', 1",
  })
  void aSeriesSharesItsGpuByItsProfilesComputeSlices(
      String model, String profile, String draProfile, double share) {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    Labels.Builder b =
        Labels.builder()
            .set("__name__", "DCGM_FI_DEV_FB_USED")
            .set("gpu", "0")
            .set("modelName", model)
            .set("pod", "p");
    if (!profile.isEmpty()) {
      b.set("GPU_I_PROFILE", profile).set("GPU_I_ID", "3");
    }
    if (!draProfile.isEmpty()) {
      b.set("dra_mig_profile", draProfile);
    }
    a.append(0, b.build(), T, 4096);
    a.commit();
    String q = MigShares.builtIn().shares("max without (__name__) (DCGM_FI_DEV_FB_USED)");
    Vector v =
        (Vector)
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS))
                .instantQuery(q, T)
                .value();
    assertThat(v.samples()).hasSize(1);
    assertThat(v.samples().get(0).value()).isCloseTo(share, within(1e-12));
    Map<String, String> labels = v.samples().get(0).labels().toMap();
    assertThat(labels).containsEntry("pod", "p").doesNotContainKey("le");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"NVIDIA H100 80GB HBM3", "NVIDIA L40S", "NVIDIA A30"})
  void aFleetOfWholeGpusGetsTheSameSharesFromTheShortForm(String model) {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    for (int gpu = 0; gpu < 2; gpu++) {
      a.append(
          0,
          Labels.builder()
              .set("__name__", "DCGM_FI_DEV_FB_USED")
              .set("gpu", Integer.toString(gpu))
              .set("modelName", model)
              .set("pod", "p")
              .build(),
          T,
          4096 + gpu);
    }
    a.commit();
    EmbeddedQueryBackend backend =
        new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
    String v = "max without (__name__) (DCGM_FI_DEV_FB_USED)";
    String full = MigShares.builtIn().shares(v, true);
    String whole = MigShares.builtIn().shares(v, false);
    assertThat(whole).doesNotContain("GPU_I_PROFILE").hasSizeLessThan(full.length() / 5);
    Vector expected = (Vector) backend.instantQuery(full, T).value();
    Vector got = (Vector) backend.instantQuery(whole, T).value();
    assertThat(expected.samples()).hasSize(2);
    assertThat(got.samples()).isEqualTo(expected.samples());
    Vector weighted =
        (Vector) backend.instantQuery(MigShares.builtIn().weighted(v, false), T).value();
    Vector weightedFull =
        (Vector) backend.instantQuery(MigShares.builtIn().weighted(v, true), T).value();
    assertThat(weighted.samples()).isEqualTo(weightedFull.samples());
  }

  private static final dev.infermon.llm.catalog.Catalog CATALOG =
      dev.infermon.llm.catalog.Catalog.builtIn();

  @Test
  void onlyAFleetWhoseSeriesCarryAProfileMayBePartitioned() {
    Inventory whole = dcgm(Set.of("gpu", "modelName", "pod", "namespace"));
    assertThat(MigShares.mayPartition(Presence.of(whole, CATALOG))).isFalse();
    assertThat(MigShares.mayPartition(Presence.of(dcgm(Set.of("gpu", "GPU_I_PROFILE")), CATALOG)))
        .isTrue();
    assertThat(MigShares.mayPartition(Presence.of(dcgm(Set.of("gpu", "dra_mig_profile")), CATALOG)))
        .isTrue();
    // an AMD exporter's series name their compute partition mode (spx included)
    assertThat(
            MigShares.mayPartition(
                Presence.of(dcgm(Set.of("gpu_id", "gpu_compute_partition_type")), CATALOG)))
        .isTrue();
    // families alone say nothing of labels: the full weighting stays
    assertThat(MigShares.mayPartition(Presence.of(whole.families()))).isTrue();
  }

  private static Inventory dcgm(Set<String> labels) {
    return new Inventory(
        List.of(
            new TargetInventory(
                Map.of("job", "dcgm", "instance", "n1:9400"),
                true,
                Detection.of("dcgm"),
                Map.of(
                    "DCGM_FI_DEV_FB_USED",
                    new FamilyInfo("DCGM_FI_DEV_FB_USED", MetricType.GAUGE, labels, List.of())),
                Set.of())));
  }

  @ParameterizedTest(name = "mode \"{0}\" shares {1}")
  @CsvSource({"spx, 1", "dpx, 0.5", "qpx, 0.25", "cpx, 0.125", "'', 1"})
  void anAmdPartitionSharesItsGpuByItsMode(String mode, double share) {
    MemoryStorage storage = new MemoryStorage();
    Appender a = storage.appender();
    Labels.Builder b =
        Labels.builder()
            .set("__name__", "gpu_used_vram")
            .set("gpu_id", "3")
            .set("card_model", "102-G30211-0C")
            .set("pod", "p");
    if (!mode.isEmpty()) {
      b.set("gpu_compute_partition_type", mode);
    }
    a.append(0, b.build(), T, 4096);
    a.commit();
    String q = MigShares.builtIn().shares("max without (__name__) (gpu_used_vram)");
    Vector v =
        (Vector)
            new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS))
                .instantQuery(q, T)
                .value();
    assertThat(v.samples()).singleElement().satisfies(x -> assertThat(x.value()).isEqualTo(share));
  }

  @Test
  void badTablesNameTheFileAndTheEntry() throws Exception {
    YAMLMapper yaml = new YAMLMapper();
    assertThatThrownBy(
            () -> MigShares.parse(yaml.readTree("default_slices: 7\ngpus: [{model: A30}]\n")))
        .hasMessageContaining("dashboard/mig.yaml")
        .hasMessageContaining("gpus[0].slices");
    assertThatThrownBy(
            () ->
                MigShares.parse(
                    yaml.readTree("default_slices: 7\ngpus: [{model: \".*\", slices: 4}]\n")))
        .hasMessageContaining("gpus[0].model");
    assertThatThrownBy(() -> MigShares.parse(yaml.readTree("default_slices: 0\ngpus: []\n")))
        .hasMessageContaining("default_slices");
    assertThatThrownBy(() -> MigShares.parse(yaml.readTree("default: 7\n")))
        .hasMessageContaining("unknown keys [default]");
    assertThatThrownBy(
            () ->
                MigShares.parse(
                    yaml.readTree(
                        "default_slices: 7\ngpus: []\npartitions: {engine: amdgpu, label: t,"
                            + " device_labels: [hostname], modes: {cpx: 9}}\n")))
        .hasMessageContaining("partitions.modes.cpx");
    assertThatThrownBy(
            () ->
                MigShares.parse(
                    yaml.readTree(
                        "default_slices: 7\ngpus: []\npartitions: {engine: amdgpu, label: t,"
                            + " device_labels: [], modes: {cpx: 8}}\n")))
        .hasMessageContaining("partitions.device_labels is empty");
  }
}
