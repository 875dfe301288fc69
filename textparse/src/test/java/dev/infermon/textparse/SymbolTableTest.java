package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SymbolTableTest {
  private static String intern(SymbolTable t, String s, int pad) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    byte[] b = new byte[utf8.length + 2 * pad];
    System.arraycopy(utf8, 0, b, pad, utf8.length);
    return t.intern(b, pad, utf8.length);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "a",
        "le",
        "vllm:time_to_first_token_seconds",
        "café", // non-ASCII in the byte-at-a-time tail
        "ünïcödé_label_value_longer_than_eight", // non-ASCII in the eight-byte words
        "model_name=\"meta-llama/Llama-3.1-8B-Instruct\"",
        "日本語のヘルプテキスト"
      })
  void returnsTheSameInstanceForTheSameBytesAndDecodesThem(String s) {
    SymbolTable t = new SymbolTable();
    String first = intern(t, s, 0);
    assertThat(first).isEqualTo(s);
    assertThat(intern(t, s, 3)).as("same bytes elsewhere in a buffer").isSameAs(first);
    assertThat(intern(t, s + "x", 1)).isEqualTo(s + "x").isNotSameAs(first);
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 64, 1000})
  void manyDistinctSymbolsStayDistinctAndTheTableStaysBounded(int capacity) {
    SymbolTable t = new SymbolTable(capacity);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 5000; i++) {
      String s = "pod-" + i + (i % 3 == 0 ? "-é" : "");
      assertThat(intern(t, s, i % 5)).isEqualTo(s);
      seen.add(s);
      assertThat(t.size()).isLessThanOrEqualTo(capacity);
    }
    assertThat(seen).hasSize(5000);
    for (String s : List.of("pod-4999", "pod-4998")) {
      assertThat(intern(t, s, 0)).isSameAs(intern(t, s, 2));
    }
  }

  @org.junit.jupiter.api.Test
  void capacityBelowSixteenIsRefused() {
    assertThatThrownBy(() -> new SymbolTable(8)).hasMessageContaining("at least 16: 8");
  }
}
