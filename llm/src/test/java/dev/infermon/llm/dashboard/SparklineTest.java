package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A table's sparkline: at most the points asked for, each the extreme of its run of steps in the
 * panel's bad direction, NaN for a run without a value; a short series unchanged.
 */
class SparklineTest {
  @Test
  void aLongSeriesBecomesRunsOfItsLargestValue() {
    double[] v = new double[240]; // six hours at 90 s
    for (int i = 0; i < v.length; i++) {
      v[i] = i % 6 == 2 ? 100 + i : i; // each run of 6 has one peak
    }
    double[] s = Sparkline.of(v, PanelResult.SeriesData.SPARKLINE_POINTS, Panel.Rank.HIGH);
    assertThat(s).hasSize(40);
    for (int i = 0; i < s.length; i++) {
      assertThat(s[i]).as("run %d", i).isEqualTo(100 + 6 * i + 2);
    }
    double[] low = Sparkline.of(v, PanelResult.SeriesData.SPARKLINE_POINTS, Panel.Rank.LOW);
    for (int i = 0; i < low.length; i++) {
      assertThat(low[i]).as("run %d", i).isEqualTo(6 * i);
    }
  }

  @Test
  void unevenRunsCoverEveryStepOnceAndARunWithoutValuesIsNaN() {
    double[] v = new double[7];
    java.util.Arrays.fill(v, Double.NaN);
    v[6] = 5;
    double[] s = Sparkline.of(v, 3, Panel.Rank.HIGH); // runs [0,2) [2,4) [4,7)
    assertThat(s).hasSize(3);
    assertThat(s[0]).isNaN();
    assertThat(s[1]).isNaN();
    assertThat(s[2]).isEqualTo(5);
  }

  @Test
  void aShortSeriesIsItself() {
    double[] v = {3, Double.NaN, 1};
    assertThat(Sparkline.of(v, 40, Panel.Rank.HIGH)).containsExactly(v);
    assertThatThrownBy(() -> Sparkline.of(v, 0, Panel.Rank.HIGH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("points must be positive, got 0");
  }
}
