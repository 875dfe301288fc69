package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The GPU peak table: the built-in rows, and what a bad table is refused for. */
class GpuPeaksTest {
  private static final String ROW =
      "  - {product: X, names: [\"NVIDIA X\"], bf16_dense_tflops: 100, memory_bandwidth_gbs: 1000,"
          + " cite: here}\n";

  private static GpuPeaks load(String yaml) {
    return GpuPeaks.load("t.yaml", new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest
  @CsvSource({
    "NVIDIA H100 80GB HBM3, 989.4e12, 3350e9",
    "NVIDIA H100 PCIe, 756e12, 2000e9",
    "NVIDIA H200, 989.4e12, 4800e9",
    "NVIDIA A100-SXM4-80GB, 312e12, 2039e9",
    "NVIDIA A100-SXM4-40GB, 312e12, 1555e9",
    "NVIDIA L40S, 362.05e12, 864e9",
    "NVIDIA L4, 121e12, 300e9",
    "NVIDIA B200, 2250e12, 8000e9"
  })
  void theBuiltInTableHasTheDatasheetsDenseFigures(String name, double flops, double bytes) {
    GpuPeaks.Peak p =
        GpuPeaks.loadResource().gpus().stream()
            .filter(g -> g.names().contains(name))
            .findFirst()
            .orElseThrow();
    assertThat(p.flops()).isEqualTo(flops);
    assertThat(p.bytesPerSecond()).isEqualTo(bytes);
    assertThat(p.cite()).isNotBlank();
  }

  @Test
  void theVectorKeysEachFigureByModelName() {
    GpuPeaks t = load("gpus:\n" + ROW);
    assertThat(t.vector(Measure.OfPeak.Peak.FLOPS))
        .isEqualTo(
            "(label_replace(vector(100000000000000), \"modelName\", \"NVIDIA X\", \"\", \"\"))");
    assertThat(t.vector(Measure.OfPeak.Peak.BANDWIDTH)).contains("vector(1000000000000)");
  }

  static Stream<Arguments> badTables() {
    String pre = "gpus:\n  - {product: X, names: [\"NVIDIA X\"], ";
    return Stream.of(
        Arguments.of("gpus: []", "t.yaml: gpus: must be a non-empty list"),
        Arguments.of("gpu: []", "t.yaml: gpu: unknown key (one of gpus)"),
        Arguments.of(
            pre + "bf16_dense_tflops: 0, memory_bandwidth_gbs: 1, cite: c}",
            "t.yaml: gpus[0] (\"X\"): bf16_dense_tflops: must be > 0, got 0"),
        Arguments.of(
            pre + "bf16_dense_tflops: 1, cite: c}",
            "t.yaml: gpus[0] (\"X\"): memory_bandwidth_gbs: is required"),
        Arguments.of(
            "gpus:\n  - {product: X, names: [], bf16_dense_tflops: 1, memory_bandwidth_gbs: 1,"
                + " cite: c}",
            "t.yaml: gpus[0] (\"X\"): names: must be a non-empty list of modelName values"),
        Arguments.of(
            pre + "bf16_dense_tflops: 1, memory_bandwidth_gbs: 1}",
            "t.yaml: gpus[0]: cite: is required (a non-empty string)"),
        Arguments.of(
            pre + "bf16_dense_tflops: 1, memory_bandwidth_gbs: 1, cite: c, tflops: 2}",
            "t.yaml: gpus[0] (\"X\"): tflops: unknown key"));
  }

  @ParameterizedTest
  @MethodSource("badTables")
  void aBadTableIsRefusedNamingTheEntryAndField(String yaml, String message) {
    assertThatThrownBy(() -> load(yaml))
        .isInstanceOf(LayoutException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void aModelNameListedTwiceIsRefused() {
    assertThatThrownBy(() -> load("gpus:\n" + ROW + ROW.replace("product: X", "product: Y")))
        .isInstanceOf(LayoutException.class)
        .hasMessage("t.yaml: gpus[1] (\"Y\"): names: \"NVIDIA X\" is listed twice");
  }
}
