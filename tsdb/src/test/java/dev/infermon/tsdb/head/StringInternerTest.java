package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StringInternerTest {
  private final StringInterner interner = new StringInterner();

  /** Labels whose strings are fresh instances, as a parser or decoder would give. */
  private static Labels fresh(String... namesAndValues) {
    String[] copy = new String[namesAndValues.length];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = new String(namesAndValues[i]);
    }
    return Labels.of(copy);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "",
        "__name__=up",
        "__name__=up,job=vllm,pod=p1",
        "a=1,b=2,c=3,d=4,e=5,f=6,g=7,h=8,i=9,j=10,k=11,l=12,m=13,n=14,o=15,p=16,q=17,r=18",
        "job=job,pod=job", // values equal to names
      })
  void internedLabelsEqualTheOriginals(String spec) {
    Labels original = fresh(spec.isEmpty() ? new String[0] : spec.split("[,=]"));
    Labels interned = interner.intern(original);
    assertThat(interned)
        .isEqualTo(original)
        .hasSameHashCodeAs(original)
        .hasToString(original.toString());
    assertThat(interned.hash64()).isEqualTo(original.hash64());
    assertThat(interned.compareTo(original)).isZero();
    assertThat(original).isEqualTo(interned);

    interner.release(interned);
    assertThat(interner.size()).as("strings left").isZero();
    assertThat(interner.namesTuples()).as("tuples left").isZero();
  }

  @Test
  void seriesWithTheSameNamesShareOneNamesArray() {
    Labels p1 = interner.intern(fresh("__name__", "up", "job", "vllm", "pod", "p1"));
    Labels p2 = interner.intern(fresh("__name__", "up", "job", "vllm", "pod", "p2"));
    Labels other = interner.intern(fresh("__name__", "up", "job", "vllm"));

    assertThat(p1.sharesNamesWith(p2)).isTrue();
    assertThat(p1.sharesNamesWith(other)).isFalse();
    assertThat(interner.namesTuples()).isEqualTo(2);
    assertThat(p1.name(1)).as("name strings are shared too").isSameAs(other.name(1));
    assertThat(p1.value(0)).isSameAs(p2.value(0)).isSameAs(other.value(0));
    // __name__ job pod up vllm p1 p2
    assertThat(interner.size()).isEqualTo(7);
  }

  @Test
  void releaseFreesTheNamesArrayWithItsLastSeries() {
    Labels p1 = interner.intern(fresh("job", "vllm", "pod", "p1"));
    Labels p2 = interner.intern(fresh("job", "vllm", "pod", "p2"));

    interner.release(p1);
    assertThat(interner.namesTuples()).as("p2 still uses it").isEqualTo(1);
    assertThat(interner.size()).as("p1 released").isEqualTo(4);
    Labels p3 = interner.intern(fresh("job", "vllm", "pod", "p3"));
    assertThat(p3.sharesNamesWith(p2)).isTrue();

    interner.release(p2);
    interner.release(p3);
    assertThat(interner.namesTuples()).isZero();
    assertThat(interner.size()).isZero();
    Labels again = interner.intern(fresh("job", "vllm", "pod", "p2"));
    assertThat(again.sharesNamesWith(p2)).as("a new array after the old one was freed").isFalse();
    assertThat(again).isEqualTo(p2);
  }

  @Test
  void concurrentInternAndReleaseLeaveNothingBehind() throws Exception {
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 2_000; i++) {
                    Labels l = fresh("__name__", "up", "pod", "p" + (i % 3), "t", "" + id);
                    Labels interned = interner.intern(l);
                    assertThat(interned).isEqualTo(l);
                    interner.release(interned);
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(interner.size()).isZero();
    assertThat(interner.namesTuples()).isZero();
  }
}
