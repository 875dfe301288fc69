package dev.infermon.itui;

import dev.infermon.model.labels.Labels;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.PodInfo;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserFactory;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import dev.infermon.tsdb.Tsdb;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes a fleet's history into storage as if infermon had scraped every target every {@code step}:
 * the same target labels the generated scrape config gives ({@code job}, {@code instance} and the
 * inventory labels, honor_labels=false), so the backfilled series continue as the live ones.
 */
final class Backfill {
  private Backfill() {}

  /**
   * Replays {@code fleet} up to {@code untilMs} into a TSDB at {@code dir}; returns the samples.
   */
  static long run(
      Fleet fleet, Path dir, long untilMs, Duration step, Function<PodInfo, String> hostPort)
      throws IOException {
    try (Tsdb db = Tsdb.open(dir)) {
      return run(fleet, db, untilMs, step, hostPort);
    }
  }

  /** Replays {@code fleet} up to {@code untilMs} into {@code db}; returns the samples. */
  static long run(
      Fleet fleet, Appendable db, long untilMs, Duration step, Function<PodInfo, String> hostPort) {
    Map<String, Labels> targetLabels = new HashMap<>();
    for (PodInfo p : fleet.inventory()) {
      Labels.Builder b = Labels.builder();
      p.targetLabels().forEach(b::set);
      b.set("instance", hostPort.apply(p));
      b.set("job", p.backend().label().equals("dcgm") ? "dcgm" : "inference");
      targetLabels.put(p.name(), b.build());
    }
    ParserFactory factory =
        Parsers.forContentType("text/plain; version=0.0.4", ParserOptions.DEFAULT);
    long[] samples = {0};
    fleet.replay(
        untilMs,
        step,
        snap -> {
          Appender app = db.appender();
          for (Map.Entry<String, String> page : snap.pages().entrySet()) {
            Labels target = targetLabels.get(page.getKey());
            if (target == null) {
              continue;
            }
            Parser p = factory.parse(page.getValue().getBytes(StandardCharsets.UTF_8));
            try {
              for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
                if (e == Entry.SERIES) {
                  app.append(merge(p.labels(), target), snap.timeMillis(), p.value());
                  samples[0]++;
                }
              }
            } catch (ParseException e) {
              throw new IllegalStateException(
                  "simulator page " + page.getKey() + " does not parse", e);
            }
          }
          app.commit();
        });
    return samples[0];
  }

  /** Target labels win; a page label they clobber is kept as {@code exported_<name>}. */
  static Labels merge(Labels scraped, Labels target) {
    Labels.Builder b = scraped.toBuilder();
    for (int i = 0; i < target.size(); i++) {
      String name = target.name(i);
      String mine = scraped.get(name);
      if (!mine.isEmpty()) {
        b.set("exported_" + name, mine);
      }
      b.set(name, target.value(i));
    }
    return b.build();
  }
}
