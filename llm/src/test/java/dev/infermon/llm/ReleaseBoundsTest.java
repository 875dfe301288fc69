package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.ReleaseBounds;
import dev.infermon.llm.catalog.ReleaseRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The catalog's bucket sets per release: vLLM's time to first token stops at 10 s in 0.4-0.7 and at
 * 2560 s from 0.8 (vllm.yaml); SGLang's 0.4.3-0.4.5 set is not known, so those lines are in no run.
 */
class ReleaseBoundsTest {
  static final Catalog CATALOG = Catalog.builtIn();

  @Test
  void vllmTtftHasTwoRuns() {
    EngineCatalog vllm = CATALOG.engine("vllm");
    List<ReleaseBounds.Run> runs =
        ReleaseBounds.runs(vllm, vllm.entries("time_to_first_token_seconds"), null);
    assertThat(runs).extracting(ReleaseBounds.Run::releases).containsExactly("0.4–0.7", "0.8–0.33");
    assertThat(runs.get(0).bounds()).endsWith(5.0, 7.5, 10.0);
    assertThat(runs.get(1).bounds()).endsWith(640.0, 2560.0);
    assertThat(ReleaseBounds.lacking(runs, 20)).containsExactly(runs.get(0));
    assertThat(ReleaseBounds.lacking(runs, 5)).isEmpty();
    // a range keeps only its lines
    ReleaseRange old =
        new ReleaseRange(vllm.version("0.4").orElseThrow(), vllm.version("0.5").orElseThrow());
    assertThat(ReleaseBounds.runs(vllm, vllm.entries("time_to_first_token_seconds"), old))
        .extracting(ReleaseBounds.Run::releases)
        .containsExactly("0.4–0.5");
  }

  @Test
  void theLargestBoundEverySetHas() {
    List<Double> v0 = List.of(1.0, 2.5, 5.0, 7.5, 10.0);
    List<Double> v1 = List.of(1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0);
    List<Double> sglang = List.of(1.0, 2.0, 4.0, 6.0, 8.0, 10.0, 20.0);
    assertThat(ReleaseBounds.commonBoundAtOrBelow(List.of(v0, v1), 20)).hasValue(10.0);
    assertThat(ReleaseBounds.commonBoundAtOrBelow(List.of(v1, sglang), 20)).hasValue(20.0);
    assertThat(ReleaseBounds.commonBoundAtOrBelow(List.of(v1, sglang), 5)).hasValue(1.0);
    assertThat(ReleaseBounds.commonBoundAtOrBelow(List.of(v1), 0.5)).isEmpty();
    assertThat(ReleaseBounds.commonBoundAtOrBelow(List.of(), 5)).isEmpty();
  }

  @Test
  void linesWithoutFixedBoundsAreInNoRun() {
    EngineCatalog sglang = CATALOG.engine("sglang");
    List<ReleaseBounds.Run> runs =
        ReleaseBounds.runs(sglang, sglang.entries("time_to_first_token_seconds"), null);
    assertThat(runs).hasSize(2);
    assertThat(runs.get(0).last().name()).isNotEqualTo("0.4.3");
    assertThat(runs.get(1).first().name()).isEqualTo("0.4.5");
  }
}
