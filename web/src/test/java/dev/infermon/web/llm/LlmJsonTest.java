package dev.infermon.web.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.web.api.Envelope;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The compact series encoding: start, step and one value per step, nulls for gaps. */
class LlmJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode encode(PanelResult.SeriesData s, long stepMs) throws Exception {
    PanelResult r =
        new PanelResult(
            Dashboards.panel("model.qps"),
            List.of(new PanelResult.QueryData("{{model_name}}", "up", List.of(s), List.of())),
            PanelResult.Status.OK,
            List.of());
    byte[] bytes = Envelope.success(g -> LlmJson.panelResult(g, r, stepMs));
    return JSON.readTree(bytes).path("data").path("queries").get(0).path("series").get(0);
  }

  @Test
  void aSummaryIsTheLastValueAndASparklineOfTheRunsPeaksAndATotalIsWritten() throws Exception {
    long[] t = new long[80];
    double[] v = new double[80];
    for (int i = 0; i < t.length; i++) {
      t[i] = 15_000L * i;
      v[i] = i % 2 == 0 ? i : Double.NaN;
    }
    v[78] = Double.NaN; // the last number is v[76]; the last run has none
    PanelResult.SeriesData s = new PanelResult.SeriesData(Map.of("pod", "p"), t, v);
    PanelResult r =
        new PanelResult(
            Dashboards.panel("pod.kv_usage"),
            List.of(new PanelResult.QueryData("{{pod}}", "up", List.of(s), List.of(), 9)),
            PanelResult.Status.OK,
            List.of());
    JsonNode q =
        JSON.readTree(Envelope.success(g -> LlmJson.panelResult(g, r, 15_000, true)))
            .path("data")
            .path("queries")
            .get(0);
    assertThat(q.path("total").asInt()).isEqualTo(9);
    JsonNode n = q.path("series").get(0);
    assertThat(n.has("values")).isFalse();
    assertThat(n.path("last").asDouble()).isEqualTo(76);
    JsonNode spark = n.path("spark");
    assertThat(spark).hasSize(40); // runs of two steps: the even one is the run's value
    for (int i = 0; i < 39; i++) {
      assertThat(spark.get(i).asDouble()).as("run %d", i).isEqualTo(2 * i);
    }
    assertThat(spark.get(39).isNull()).isTrue();
  }

  /**
   * A sparkline's points are written to three significant digits (a thumbnail needs no more, and
   * all seventeen were most of a large fleet's table answer); the last value stays exact.
   */
  @Test
  void aSparklineIsWrittenToThreeDigitsAndTheLastValueExactly() throws Exception {
    double[] v = {0.123456789, 98765.4321, 1.0000001e-7, 42, 0, -2.71828, 0.076543210987};
    long[] t = new long[v.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = 15_000L * i;
    }
    PanelResult.SeriesData s = new PanelResult.SeriesData(Map.of("pod", "p"), t, v);
    PanelResult r =
        new PanelResult(
            Dashboards.panel("pod.kv_usage"),
            List.of(new PanelResult.QueryData("{{pod}}", "up", List.of(s), List.of(), 1)),
            PanelResult.Status.OK,
            List.of());
    String json =
        new String(
            Envelope.success(g -> LlmJson.panelResult(g, r, 15_000, true)),
            java.nio.charset.StandardCharsets.UTF_8);
    JsonNode n = JSON.readTree(json).path("data").path("queries").get(0).path("series").get(0);
    assertThat(n.path("last").asDouble()).isEqualTo(0.076543210987);
    List<String> spark = new java.util.ArrayList<>();
    n.path("spark").forEach(x -> spark.add(x.asText()));
    assertThat(spark).containsExactly("0.123", "98800", "1.0E-7", "42", "0", "-2.72", "0.0765");
    assertThat(json).doesNotContain("0.123456789");
  }

  @Test
  void gapsAreNullsAndNonFiniteValuesStrings() throws Exception {
    PanelResult.SeriesData s =
        new PanelResult.SeriesData(
            Map.of("model_name", "m"),
            new long[] {1000, 2000, 5000, 6000, 7000},
            new double[] {0.1, Double.NaN, 1e-7, Double.POSITIVE_INFINITY, 3});
    JsonNode n = encode(s, 1000);
    assertThat(n.has("timestamps")).isFalse();
    assertThat(n.path("start").asLong()).isEqualTo(1000);
    assertThat(n.path("step").asLong()).isEqualTo(1000);
    assertThat(n.path("values").toString()).isEqualTo("[0.1,\"NaN\",null,null,1.0E-7,\"+Inf\",3]");
    assertThat(n.path("labels").toString()).isEqualTo("{\"model_name\":\"m\"}");
  }

  @Test
  void decodesToTheSamePoints() throws Exception {
    long[] t = {90_000, 180_000, 450_000, 540_000, 630_000};
    double[] v = {0.30000000000000004, -0.0, 12345.678, 1e300, 42};
    JsonNode n = encode(new PanelResult.SeriesData(Map.of(), t, v), 90_000);
    JsonNode values = n.path("values");
    int got = 0;
    for (int i = 0; i < values.size(); i++) {
      if (!values.get(i).isNull()) {
        assertThat(n.path("start").asLong() + i * n.path("step").asLong()).isEqualTo(t[got]);
        assertThat(Double.doubleToRawLongBits(values.get(i).asDouble()))
            .as("value %d", got)
            .isEqualTo(Double.doubleToRawLongBits(v[got]));
        got++;
      }
    }
    assertThat(got).isEqualTo(t.length);
  }

  @Test
  void pointsOffTheGridKeepTheirTimestamps() throws Exception {
    JsonNode n =
        encode(
            new PanelResult.SeriesData(Map.of(), new long[] {1000, 2500}, new double[] {1, 2}),
            1000);
    assertThat(n.has("start")).isFalse();
    assertThat(n.path("timestamps").toString()).isEqualTo("[1000,2500]");
    assertThat(n.path("values").toString()).isEqualTo("[1,2]");
  }
}
