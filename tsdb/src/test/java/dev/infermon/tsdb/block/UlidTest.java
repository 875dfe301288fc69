package dev.infermon.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UlidTest {
  @Test
  void encodesTheTimeInTheFirstTenCharactersSoIdsSortByCreation() {
    // 1469918176385 ms is "01ARYZ6S41" in the ULID specification's example.
    assertThat(Ulid.of(1469918176385L, new Random(1))).startsWith("01ARYZ6S41").hasSize(26);
    String a = Ulid.of(1_000, new Random(1));
    String b = Ulid.of(1_001, new Random(2));
    assertThat(a).isLessThan(b);
    assertThat(Ulid.isValid(Ulid.next())).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "01ARZ3NDEKTSV4RRFFQ69G5FA",
        "01ARZ3NDEKTSV4RRFFQ69G5FAVX",
        "01arz3ndektsv4rrffq69g5fav",
        "81ARZ3NDEKTSV4RRFFQ69G5FAV",
        "01ARZ3NDEKTSV4RRFFQ69G5FAU"
      })
  void rejectsMalformedIds(String s) {
    assertThat(Ulid.isValid(s)).isFalse();
  }
}
