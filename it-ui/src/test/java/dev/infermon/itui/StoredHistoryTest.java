package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.tsdb.Tsdb;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UI bench's {@code --history} path without a browser: a history stored as the benchmarks
 * module's {@code FleetHistory} stores one (replayed, compacted, closed, {@code
 * history.properties}), read, copied, and served by {@link HistoryServer#open} with every sample
 * back; the stored directory is left as it was.
 */
class StoredHistoryTest {
  // long enough for the compaction to cut a block: the copy is served from blocks and the log
  private static final long HOURS = 5;

  @TempDir Path tmp;

  @Test
  void aCopyOfAStoredHistoryServesEverySampleAndTheStoredOneIsNotWritten() throws Exception {
    Path stored = tmp.resolve("stored");
    long end = System.currentTimeMillis() / 1000 * 1000;
    long samples = store(stored, end);
    StoredHistory h = StoredHistory.read(stored);
    assertThat(h.endMs).isEqualTo(end);
    assertThat(h.samples).isEqualTo(samples).isPositive();
    assertThat(h.hours).isEqualTo(HOURS);
    Map<String, Long> before = listing(stored);
    assertThat(before.keySet()).anyMatch(f -> f.matches("data/[0-9A-Z]{26}/meta.json"));

    Path copy = tmp.resolve("copy").resolve("data");
    StoredHistory.copyTree(stored.resolve("data"), copy);
    String window = (HOURS * 60 + 1) + "m";
    try (HistoryServer server = HistoryServer.open(copy, h.samples, h.endMs, h.scrapeSeconds)) {
      // every sample back, from the blocks and the replayed log: what a restarted server serves
      // (by metric name: count_over_time drops the name, so names sharing labels would collide)
      double read = 0;
      for (String name : names(server.baseUrl())) {
        read +=
            instant(server.baseUrl(), "sum(count_over_time(" + name + "[" + window + "]))", end);
      }
      assertThat(read).isEqualTo((double) samples);
    }
    assertThat(listing(stored)).isEqualTo(before);
  }

  @Test
  void aDirectoryWithoutAHistoryIsRefused() {
    assertThatThrownBy(() -> StoredHistory.read(tmp))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("history.properties");
  }

  /** As FleetHistory.build: the fleet replayed into a TSDB, compacted, closed, then the marker. */
  private static long store(Path dir, long end) throws IOException, InterruptedException {
    FleetConfig config =
        FleetConfig.builder().seed(7).vllmPods(2).sglangPods(1).sglangGatewayPods(0).build();
    Fleet fleet = Fleet.create(config, end - Duration.ofHours(HOURS).toMillis());
    long samples;
    try (Tsdb db = Tsdb.open(dir.resolve("data"))) {
      samples = Backfill.run(fleet, db, end, Duration.ofSeconds(30), p -> "sim:" + p.name());
      db.compact();
    }
    Properties p = new Properties();
    p.setProperty("pods", "3");
    p.setProperty("hours", Long.toString(HOURS));
    p.setProperty("scrapeSeconds", "30");
    p.setProperty("endMs", Long.toString(end));
    p.setProperty("samples", Long.toString(samples));
    try (OutputStream out = Files.newOutputStream(dir.resolve(StoredHistory.MARKER))) {
      p.store(out, null);
    }
    return samples;
  }

  /** Every file under {@code dir} with its size and modification time. */
  private static Map<String, Long> listing(Path dir) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        out.put(
            dir.relativize(p).toString(),
            Files.isDirectory(p)
                ? -1
                : Files.size(p) * 31 + Files.getLastModifiedTime(p).toMillis());
      }
    }
    return out;
  }

  private static List<String> names(String base) throws Exception {
    String body = get(base + "/api/v1/label/__name__/values");
    List<String> out = new ArrayList<>();
    Matcher m =
        Pattern.compile("\"([a-zA-Z_:][a-zA-Z0-9_:]*)\"")
            .matcher(body.replaceFirst("^.*\"data\":", ""));
    while (m.find()) {
      out.add(m.group(1));
    }
    assertThat(out).as(body).isNotEmpty();
    return out;
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static double instant(String base, String query, long atMs) throws Exception {
    String body =
        get(
            base
                + "/api/v1/query?time="
                + atMs / 1000
                + "&query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8));
    Matcher m = Pattern.compile("\"value\":\\[[^,]+,\"([^\"]+)\"\\]").matcher(body);
    assertThat(m.find()).as(body).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
