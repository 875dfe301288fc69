package dev.infermon.simulator.vllm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** One engine's NIXL counts: whole blocks split over the TP workers, one failed worker a cycle. */
class VllmNixlTest {
  @Test
  void aRequestMovesItsPromptsWholeBlocksSplitOverTheWorkers() {
    VllmNixl n = new VllmNixl(2, 16);
    n.received(100, 0.02);
    // 100 tokens fill 7 blocks of 16; each worker moves half of 131072 bytes a token
    assertThat(n.transfers()).isEqualTo(2);
    assertThat(n.bytesMoved()).isEqualTo(7 * 16 * 131072.0);
    assertThat(n.bytes.count()).isEqualTo(2);
    assertThat(n.transferSeconds()).isCloseTo(0.04, within(1e-12));
    assertThat(n.descriptors.sum()).isEqualTo(2 * 7 * VllmNixl.LAYERS * 2.0);
    assertThat(n.failedTransfers()).isZero();
  }

  @Test
  void everyFiftiethRequestHasItsFirstWorkersTransferFail() {
    VllmNixl n = new VllmNixl(4, 16);
    for (int i = 0; i < VllmNixl.FAILURE_EVERY; i++) {
      n.received(16, 0.01);
    }
    assertThat(n.failedTransfers()).isEqualTo(1);
    assertThat(n.transfers()).isEqualTo(4L * VllmNixl.FAILURE_EVERY - 1);
    assertThat(n.bytesMoved()).isEqualTo((4.0 * VllmNixl.FAILURE_EVERY - 1) * 16 * 131072 / 4);
  }

  @Test
  void theBytesBucketsAreVllmsPowersOfFour() {
    assertThat(VllmNixl.BYTES).hasSize(12);
    assertThat(VllmNixl.BYTES[0]).isEqualTo(2048);
    assertThat(VllmNixl.BYTES[11]).isEqualTo(8589934592.0);
  }

  @Test
  void aConnectorNeedsWorkersAndBlocks() {
    assertThatThrownBy(() -> new VllmNixl(0, 16)).hasMessageContaining("workers");
  }
}
