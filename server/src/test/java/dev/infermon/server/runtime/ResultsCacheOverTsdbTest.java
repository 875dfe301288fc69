package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.storage.Appender;
import dev.infermon.tsdb.Tsdb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query stack as {@code serve} wires it over the embedded TSDB (its appendable window and its
 * watermark of commits) answers exactly what the engine answers without a cache, while scrapes keep
 * committing at the newest time and a late sender commits up to 50 minutes back, across seconds of
 * wall time (the watermark counts commits by the second).
 */
class ResultsCacheOverTsdbTest {
  private static final long T0 = 1_780_000_000_000L;
  private static final long SCRAPE = 15_000;
  private static final List<String> QUERIES =
      List.of(
          "sum by (pod) (rate(reqs_total[5m]))",
          "max_over_time(queue[10m])",
          "avg(queue)",
          "queue - queue offset 90s",
          "histogram_quantile(0.9, sum by (le) (rate(lat_bucket[5m])))");

  @TempDir Path dir;
  private long now = T0;
  private long lateAt = T0;
  private final Random random = new Random(42);

  private void scrape(Tsdb db) {
    Appender app = db.appender();
    long k = (now - T0) / SCRAPE;
    for (int pod = 0; pod < 3; pod++) {
      String p = "p" + pod;
      app.append(0, Labels.of("__name__", "reqs_total", "pod", p), now, k * (pod + 1));
      app.append(0, Labels.of("__name__", "queue", "pod", p), now, (k * 31 + pod) % 13);
      double cum = 0;
      for (String le : new String[] {"0.1", "1", "+Inf"}) {
        cum += (k * (pod + 2) + le.length()) % 5;
        app.append(0, Labels.of("__name__", "lat_bucket", "pod", p, "le", le), now, cum * k);
      }
    }
    app.commit();
    now += SCRAPE;
  }

  /** A sender catching up: its samples up to a random point 0-50 minutes behind the newest. */
  private void late(Tsdb db) {
    long until = now - random.nextInt(50) * 60_000L;
    Appender app = db.appender();
    for (; lateAt <= until; lateAt += SCRAPE) {
      long k = (lateAt - T0) / SCRAPE;
      app.append(0, Labels.of("__name__", "reqs_total", "pod", "late"), lateAt, k * 2);
      app.append(0, Labels.of("__name__", "queue", "pod", "late"), lateAt, k % 7);
    }
    app.commit();
  }

  @Test
  void answersAsTheEngineWhileScrapesAndALateSenderCommit() throws Exception {
    try (Tsdb db = Tsdb.open(dir)) {
      while (now < T0 + 3 * 3_600_000L) {
        scrape(db);
      }
      lateAt = now - 55 * 60_000L;
      Engine engine = new Engine(EngineOptions.DEFAULTS);
      QueryBackend plain = new EmbeddedQueryBackend(db, engine);
      QueryBackend stack =
          QueryStack.of(new EmbeddedQueryBackend(db, engine, db::appendableMinTime, db));
      long step = 60_000;
      for (int round = 0; round < 8; round++) {
        long end = (now / step + 1) * step;
        long start = end - 2 * 3_600_000L;
        for (String q : QUERIES) {
          assertThat(points(stack.rangeQuery(q, start, end, step).value()))
              .as("%s, round %d", q, round)
              .isEqualTo(points(plain.rangeQuery(q, start, end, step).value()));
        }
        for (int i = random.nextInt(4); i >= 0; i--) {
          scrape(db);
        }
        if (round % 2 == 0) {
          late(db);
        }
        if (round % 3 == 1) {
          Thread.sleep(1_100); // the next marks fall in later seconds than these commits
        }
      }
    }
  }

  private static List<String> points(Object value) {
    List<String> out = new ArrayList<>();
    for (TimeSeries s : ((Matrix) value).series()) {
      long[] t = new long[s.size()];
      double[] v = new double[s.size()];
      for (int i = 0; i < s.size(); i++) {
        t[i] = s.timestampAt(i);
        v[i] = s.valueAt(i);
      }
      out.add(s.labels() + " " + Arrays.toString(t) + " " + Arrays.toString(v));
    }
    return out;
  }
}
