package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cut to a request's top: by the largest value over the window (or the smallest for a {@code
 * rank: low} panel), a series without values last, ties by labels, and nothing cut when there are
 * no more than top.
 */
class TopSeriesTest {
  private static final double NAN = Double.NaN;

  private static PanelResult.SeriesData pod(String name, double... values) {
    long[] t = new long[values.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = 15_000L * i;
    }
    return new PanelResult.SeriesData(Map.of("namespace", "ns", "pod", name), t, values);
  }

  private static List<String> pods(List<PanelResult.SeriesData> series) {
    return series.stream().map(s -> s.labels().get("pod")).toList();
  }

  private static final List<PanelResult.SeriesData> FLEET =
      List.of(
          pod("a", 1, 2, 3),
          pod("b", 9, 0, 0), // the highest peak, long gone
          pod("c", NAN, NAN, NAN), // no value at all
          pod("d", 4, NAN, 0.5),
          pod("e", 4, 4, 4)); // ties d's peak

  @Test
  void highKeepsTheHighestPeaksWorstFirstTiesByLabels() {
    assertThat(pods(TopSeries.cut(FLEET, 3, Panel.Rank.HIGH))).containsExactly("b", "d", "e");
    assertThat(pods(TopSeries.cut(FLEET, 4, Panel.Rank.HIGH))).containsExactly("b", "d", "e", "a");
  }

  @Test
  void lowKeepsTheLowestDipsAndASeriesWithoutValuesComesLast() {
    assertThat(pods(TopSeries.cut(FLEET, 2, Panel.Rank.LOW))).containsExactly("b", "d");
    assertThat(pods(TopSeries.cut(FLEET, 4, Panel.Rank.LOW))).containsExactly("b", "d", "a", "e");
  }

  @Test
  void noMoreThanTopKeepsEverySeriesInOrder() {
    assertThat(pods(TopSeries.cut(FLEET, 5, Panel.Rank.HIGH)))
        .containsExactly("a", "b", "c", "d", "e");
    assertThat(pods(TopSeries.cut(FLEET, 50, Panel.Rank.LOW)))
        .containsExactly("a", "b", "c", "d", "e");
  }

  @Test
  void theScoreIgnoresNaN() {
    assertThat(TopSeries.score(pod("d", 4, NAN, 0.5), Panel.Rank.HIGH)).isEqualTo(4);
    assertThat(TopSeries.score(pod("d", 4, NAN, 0.5), Panel.Rank.LOW)).isEqualTo(0.5);
    assertThat(TopSeries.score(pod("c", NAN, NAN), Panel.Rank.HIGH)).isNaN();
  }

  @Test
  void topMustBePositive() {
    assertThatThrownBy(() -> TopSeries.cut(FLEET, 0, Panel.Rank.HIGH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("top must be positive, got 0");
  }

  @Test
  void theRequestRefusesATopThatIsNotPositiveNamingIt() {
    DashboardRequest r = DashboardRequest.of(Filters.NONE, 0, 60_000);
    assertThat(r.top()).isEmpty();
    assertThat(r.withTop(7).top()).hasValue(7);
    assertThatThrownBy(() -> r.withTop(-3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("top must be a positive number of series, got -3");
  }
}
