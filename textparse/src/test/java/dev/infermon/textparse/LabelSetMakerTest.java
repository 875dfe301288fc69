package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import org.junit.jupiter.api.Test;

class LabelSetMakerTest {
  private final LabelSetMaker maker = new LabelSetMaker();

  private Labels make(String... namesAndValues) {
    maker.start(namesAndValues.length / 2);
    for (int i = 0; i < namesAndValues.length; i += 2) {
      maker.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return maker.make();
  }

  @Test
  void makesSortedLabelSetsSharingNamesWithThePreviousWhenTheSame() {
    // Each row: labels in written order, and whether the names are those of the row before.
    Object[][] rows = {
      {new String[] {"__name__", "x", "pod", "p1", "job", "j"}, false},
      {new String[] {"__name__", "x", "job", "j", "pod", "p2"}, true}, // other order, same names
      {new String[] {"__name__", "x_sum", "job", "j"}, false},
      {new String[] {"__name__", "x_count", "job", "j"}, true},
      {new String[] {}, false},
      {new String[] {}, true},
      // More labels than the scratch arrays start with.
      {
        new String[] {
          "q", "1", "p", "2", "o", "3", "n", "4", "m", "5", "l", "6", "k", "7", "j", "8", "i", "9",
          "h", "10", "g", "11", "f", "12", "e", "13", "d", "14", "c", "15", "b", "16", "a", "17"
        },
        false
      },
      {new String[] {"job", "j"}, false},
    };
    Labels previous = null;
    for (Object[] row : rows) {
      String[] pairs = (String[]) row[0];
      Labels got = make(pairs);
      assertThat(got).isEqualTo(Labels.of(pairs));
      if (previous != null) {
        assertThat(got.sharesNamesWith(previous)).as(got.toString()).isEqualTo(row[1]);
      }
      previous = got;
    }
  }

  @Test
  void rejectsADuplicateName() {
    assertThatThrownBy(() -> make("a", "1", "a", "2")).hasMessageContaining("\"a\" before \"a\"");
  }
}
