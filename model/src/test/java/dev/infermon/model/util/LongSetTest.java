package dev.infermon.model.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** {@link LongSet} against {@link HashSet}: the same answers for any sequence of operations. */
class LongSetTest {
  /** An operation: add (0), contains (1) or clear (2), on a value. */
  record Op(int kind, long value) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    // Few distinct values, so that adds repeat and lookups hit; 0 and Long.MIN_VALUE included.
    Arbitrary<Long> values =
        Arbitraries.oneOf(
            Arbitraries.longs().between(-40, 40),
            Arbitraries.of(0L, Long.MIN_VALUE, Long.MAX_VALUE),
            Arbitraries.longs().between(0, 5_000).map(v -> v << 32));
    Arbitrary<Integer> kinds =
        Arbitraries.frequency(
            net.jqwik.api.Tuple.of(10, 0),
            net.jqwik.api.Tuple.of(10, 1),
            net.jqwik.api.Tuple.of(1, 2));
    return net.jqwik.api.Combinators.combine(kinds, values).as(Op::new).list().ofMaxSize(3000);
  }

  @Property(tries = 300)
  void behavesAsAHashSet(@ForAll("ops") List<Op> ops) {
    LongSet set = new LongSet();
    Set<Long> want = new HashSet<>();
    for (Op op : ops) {
      switch (op.kind()) {
        case 0 -> assertThat(set.add(op.value())).isEqualTo(want.add(op.value()));
        case 1 -> assertThat(set.contains(op.value())).isEqualTo(want.contains(op.value()));
        default -> {
          set.clear();
          want.clear();
        }
      }
      assertThat(set.size()).isEqualTo(want.size());
    }
    for (long v : want) {
      assertThat(set.contains(v)).isTrue();
    }
  }

  @Test
  void growsPastItsExpectedSize() {
    LongSet set = new LongSet(4);
    for (long v = 1; v <= 100_000; v++) {
      assertThat(set.add(v * 7919)).isTrue();
    }
    assertThat(set.size()).isEqualTo(100_000);
    assertThat(set.contains(7919L * 50_000)).isTrue();
    assertThat(set.contains(7919L * 50_000 + 1)).isFalse();
  }

  @Test
  void refusesANegativeExpectedSize() {
    assertThatThrownBy(() -> new LongSet(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }
}
