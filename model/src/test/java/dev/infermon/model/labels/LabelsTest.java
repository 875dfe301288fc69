package dev.infermon.model.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LabelsTest {
  @Test
  void sortsByNameAndDropsEmptyValues() {
    Labels l = Labels.of("pod", "p1", "__name__", "up", "empty", "", "job", "vllm");
    assertThat(l.names()).containsExactly("__name__", "job", "pod");
    assertThat(l.get("empty")).isEmpty();
    assertThat(l.has("empty")).isFalse();
    assertThat(l.toString()).isEqualTo("up{job=\"vllm\", pod=\"p1\"}");
  }

  @Test
  void equalSetsAreEqualWhateverTheOrderOfConstruction() {
    Labels a = Labels.of("a", "1", "b", "2");
    Labels b = Labels.builder().set("b", "2").set("a", "1").build();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.hash64()).isEqualTo(b.hash64());
    assertThat(a.compareTo(b)).isZero();
  }

  @Test
  void rejectsCallerMistakesNamingTheValue() {
    assertThatThrownBy(() -> Labels.of("a")).hasMessageContaining("odd count");
    assertThatThrownBy(() -> Labels.of("a", "1", "a", "2")).hasMessageContaining("\"a\"");
    assertThatThrownBy(() -> Labels.fromSortedPairs(new String[] {"b", "1", "a", "2"}))
        .hasMessageContaining("\"b\" before \"a\"");
  }

  @Test
  void orderIsLabelByLabel() {
    List<Labels> sorted =
        List.of(Labels.of("a", "1"), Labels.of("a", "1", "b", "1"), Labels.of("a", "2"));
    assertThat(sorted.get(0)).isLessThan(sorted.get(1));
    assertThat(sorted.get(1)).isLessThan(sorted.get(2));
  }

  @Test
  void withoutAndKeepOnly() {
    Labels l = Labels.of("__name__", "x", "a", "1", "b", "2");
    assertThat(l.withoutMetricName()).isEqualTo(Labels.of("a", "1", "b", "2"));
    assertThat(l.keepOnly(Set.of("b"))).isEqualTo(Labels.of("b", "2"));
    assertThat(l.without(Set.of("zzz"))).isSameAs(l);
  }

  @Test
  void escapesValuesInToString() {
    assertThat(Labels.of("a", "x\"y\\z\n").toString()).isEqualTo("{a=\"x\\\"y\\\\z\\n\"}");
  }
}
