package dev.infermon.promql.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.promql.value.Matrix;
import dev.infermon.storage.testing.MemoryStorage;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * infermon's engine against the real Prometheus 2.42 on the same data: the {@link DataSet}
 * backfilled into Prometheus with {@code promtool} (and its tail, with the staleness markers, by
 * remote write) and appended to a {@link MemoryStorage}; every {@link QueryTable} query run as the
 * same range query on both and compared by {@link Comparison}. Skips, saying why, when the binaries
 * are absent. Writes {@code target/differential/report.md}.
 */
class DifferentialTest {
  static final long SEED = 20_240_101;

  /** Evaluation steps at 17 s past the minute: never a multiple of a subquery step. */
  static final long START = DataSet.T0 + 10 * 60_000 + 17_000;

  static final long END = DataSet.T0 + 155 * 60_000 + 17_000;
  static final long STEP = 60_000;

  /** The single-step evaluation time: T0 + 121m17s. */
  static final long INSTANT = DataSet.T0 + 121 * 60_000 + 17_000;

  private static final String ATAN2 =
      "3.x drops the metric name for atan2 like the other arithmetic operators; 2.42 keeps it";
  private static final String TIES =
      "ties: on equal values 2.42 pops the heap's root and pushes, 3.x overwrites the root"
          + " and fixes the heap, so a different one of the tied series is kept";
  private static final String SINGLE_NAN_STDDEV =
      "a group whose only sample is NaN or Inf: 3.x gives NaN, 2.42 gives 0";

  /**
   * Disagreements explained by a difference between Prometheus 2.42 and 3.x semantics (which
   * infermon implements), with the cause; the test tolerates exactly these.
   */
  static final Map<String, String> KNOWN_DIFFERENCES =
      Map.of(
          "vllm:num_requests_running atan2 3",
          ATAN2,
          "2 atan2 vllm:kv_cache_usage_perc",
          ATAN2,
          "vllm:num_requests_running atan2 vllm:num_requests_waiting",
          ATAN2,
          "topk(2, vllm:num_requests_running)",
          TIES,
          "bottomk(2, vllm:num_requests_running)",
          TIES,
          "increase(vllm:generation_tokens_total[1h])",
          "extrapolation towards the start of a series: 2.42 caps durationToStart by the"
              + " zero point before the 1.1x-interval threshold test, 3.x (PR #13725) after it",
          "stddev by (pod) (vllm:spec_decode_draft_acceptance_rate)",
          SINGLE_NAN_STDDEV,
          "stdvar by (pod) (vllm:spec_decode_draft_acceptance_rate)",
          SINGLE_NAN_STDDEV,
          "histogram_fraction(0, 0.1, rate(vllm:time_to_first_token_seconds_bucket[5m]))",
          "3.x computes histogram_fraction over classic buckets; 2.42 only over native"
              + " histograms (returns nothing for floats)");

  /** One query evaluated one way on both sides. */
  record Row(String mode, QueryTable.Query query, Outcome prometheus, String difference) {
    boolean agrees() {
      return difference == null;
    }

    boolean known() {
      return KNOWN_DIFFERENCES.containsKey(query.infermon());
    }
  }

  /** A way of evaluating: the whole range, or a single step (infermon's instant path). */
  record Mode(String name, long start, long end, long step) {}

  static final List<Mode> MODES =
      List.of(
          new Mode("range", START, END, STEP),
          // Just after pod 3 went stale; start == end takes infermon's instant code path.
          new Mode("one step", INSTANT, INSTANT, STEP));

  @Test
  void agreesWithPrometheus242(@TempDir Path tmp) throws Exception {
    String missing = PrometheusProcess.unavailableReason();
    assumeTrue(missing == null, () -> missing + "; the differential test needs it");

    DataSet data = DataSet.generate(SEED);
    Path om = tmp.resolve("data.om.txt");
    try (Writer w = Files.newBufferedWriter(om, StandardCharsets.UTF_8)) {
      OpenMetricsWriter.write(data, DataSet.splitMs(), w);
    }
    Path dataDir = tmp.resolve("data");
    PrometheusProcess.backfill(om, dataDir, Duration.ofSeconds(60));

    MemoryStorage storage = new MemoryStorage();
    data.loadInto(storage);
    EmbeddedQueryBackend infermon =
        new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));

    List<QueryTable.Query> queries = QueryTable.all();
    List<Row> rows = new ArrayList<>();
    try (PrometheusProcess prometheus =
        PrometheusProcess.start(
            dataDir, tmp, Duration.ofSeconds(30), "--web.enable-remote-write-receiver")) {
      byte[] tail = tail(data);
      prometheus.remoteWrite(tail);
      keepInputs(om, tail);
      for (Mode m : MODES) {
        for (QueryTable.Query q : queries) {
          Outcome p =
              Outcome.ofPrometheus(
                  prometheus
                      .queryRange(
                          q.prometheus(), m.start(), m.end(), m.step(), Duration.ofSeconds(30))
                      .body());
          Outcome i = run(infermon, q.infermon(), m);
          rows.add(new Row(m.name(), q, p, Comparison.difference(p, i)));
        }
      }
    }
    writeReport(rows, data);

    Map<String, String> unexplained = new LinkedHashMap<>();
    Set<String> knownSeen = new TreeSet<>();
    int nonEmpty = 0;
    for (Row r : rows) {
      if (!r.agrees() && r.known()) {
        knownSeen.add(r.query().infermon());
      } else if (!r.agrees()) {
        unexplained.put(r.mode() + ": " + r.query().infermon(), r.difference());
      }
      if (!r.prometheus().failed() && r.prometheus().points() > 0) {
        nonEmpty++;
      }
    }
    assertThat(queries).hasSizeGreaterThanOrEqualTo(300);
    // Comparing empty answers proves little: most queries must return data.
    assertThat(nonEmpty).isGreaterThan(rows.size() * 85 / 100);
    assertThat(unexplained).as("queries where infermon and Prometheus 2.42 disagree").isEmpty();
    assertThat(knownSeen)
        .as("known differences that no longer show (remove them from the list)")
        .containsExactlyInAnyOrderElementsOf(KNOWN_DIFFERENCES.keySet());
  }

  private static Outcome run(EmbeddedQueryBackend backend, String query, Mode m) {
    try {
      return Outcome.of((Matrix) backend.rangeQuery(query, m.start(), m.end(), m.step()).value());
    } catch (QueryException | ParseException e) {
      return Outcome.error(e.getMessage());
    } catch (RuntimeException e) {
      // A crash never agrees with anything, not even with an error from Prometheus.
      return Outcome.of(Map.of(Labels.of("crash", String.valueOf(e)), new TreeMap<>()));
    }
  }

  /** With -Dinfermon.differential.keep=DIR, the inputs of both loading paths, for debugging. */
  private static void keepInputs(Path om, byte[] tail) throws IOException {
    String keep = System.getProperty("infermon.differential.keep");
    if (keep != null) {
      Files.createDirectories(Path.of(keep));
      Files.copy(om, Path.of(keep, "data.om.txt"), StandardCopyOption.REPLACE_EXISTING);
      Files.write(Path.of(keep, "tail.snappy"), tail);
    }
  }

  /** The samples at or after the split, as one remote-write request. */
  private static byte[] tail(DataSet data) {
    RemoteWrite rw = new RemoteWrite();
    long split = DataSet.splitMs();
    for (DataSet.SeriesData s : data.series()) {
      int from = 0;
      while (from < s.t().length && s.t()[from] < split) {
        from++;
      }
      if (from < s.t().length) {
        rw.add(s.labels(), s.t(), s.v(), from, s.t().length);
      }
    }
    return rw.body();
  }

  private static void writeReport(List<Row> rows, DataSet data) throws IOException {
    Path dir = Path.of("target", "differential");
    Files.createDirectories(dir);
    Map<String, int[]> byCategory = new LinkedHashMap<>();
    int agree = 0;
    for (Row r : rows) {
      int[] c = byCategory.computeIfAbsent(r.query().category(), k -> new int[2]);
      c[0]++;
      if (r.agrees()) {
        c[1]++;
        agree++;
      }
    }
    StringBuilder sb = new StringBuilder("# Differential test against Prometheus 2.42\n\n");
    sb.append(data.series().size())
        .append(" series, ")
        .append(data.sampleCount())
        .append(" samples. Modes: ");
    for (Mode m : MODES) {
      sb.append(m.name())
          .append(" [")
          .append(m.start())
          .append(", ")
          .append(m.end())
          .append("] step ")
          .append(m.step())
          .append(" ms; ");
    }
    sb.append("\n\nAgreement: ")
        .append(agree)
        .append(" of ")
        .append(rows.size())
        .append(" evaluations (")
        .append(rows.size() / MODES.size())
        .append(" queries)\n\n")
        .append("| category | evaluations | agree |\n|---|---:|---:|\n");
    byCategory.forEach(
        (k, c) ->
            sb.append("| ")
                .append(k)
                .append(" | ")
                .append(c[0])
                .append(" | ")
                .append(c[1])
                .append(" |\n"));
    sb.append(
        "\n## Every evaluation\n\n| mode | query | Prometheus | verdict |\n|---|---|---|---|\n");
    for (Row r : rows) {
      Outcome p = r.prometheus();
      String answer =
          p.failed()
              ? "error: " + p.error()
              : p.series().size() + " series, " + p.points() + " points";
      String verdict =
          r.agrees()
              ? "agree"
              : (r.known()
                      ? "KNOWN: " + KNOWN_DIFFERENCES.get(r.query().infermon()) + "; "
                      : "DIFFER: ")
                  + r.difference();
      sb.append("| ")
          .append(r.mode())
          .append(" | `")
          .append(cell(r.query().infermon()))
          .append("` | ")
          .append(cell(answer))
          .append(" | ")
          .append(cell(verdict))
          .append(" |\n");
    }
    Files.writeString(dir.resolve("report.md"), sb.toString());
  }

  private static String cell(String s) {
    return s.replace("|", "\\|");
  }
}
