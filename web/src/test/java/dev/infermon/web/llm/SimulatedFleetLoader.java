package dev.infermon.web.llm;

import dev.infermon.model.labels.Labels;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.PodInfo;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Scrapes a simulated fleet into storage as infermon's scrape layer would: each page parsed at each
 * step, the target labels the inference discovery sets ({@code job}, {@code instance}, {@code
 * namespace}, {@code pod}, {@code workload_name}, {@code backend}, {@code role}) attached, {@code
 * up} written. dcgm-exporter series keep their own {@code namespace}/{@code pod} (honor_labels).
 */
final class SimulatedFleetLoader {
  static final Duration STEP = Duration.ofSeconds(15);

  private SimulatedFleetLoader() {}

  /** Steps {@code fleet} for {@code d}, appending every page into {@code storage}. */
  static void load(Fleet fleet, Appendable storage, Duration d) {
    fleet.replay(
        fleet.nowMillis() + d.toMillis(),
        STEP,
        snap -> {
          Appender app = storage.appender();
          try {
            for (PodInfo info : fleet.inventory()) {
              Map<String, String> target = targetLabels(info);
              String page = snap.pages().get(info.name());
              app.append(0, labels("up", target), snap.timeMillis(), page == null ? 0 : 1);
              if (page != null) {
                appendPage(app, page, target, snap.timeMillis());
              }
            }
            app.commit();
          } catch (RuntimeException e) {
            app.rollback();
            throw e;
          }
        });
  }

  static Map<String, String> targetLabels(PodInfo info) {
    Map<String, String> t = new LinkedHashMap<>(info.targetLabels());
    boolean dcgm = info.backend() == Backend.DCGM;
    t.put("job", dcgm ? "dcgm" : info.engine());
    t.put("instance", info.name() + ":" + (dcgm ? 9400 : 8000));
    return t;
  }

  private static void appendPage(Appender app, String page, Map<String, String> target, long t) {
    ParserOptions o = ParserOptions.builder().conformance(Conformance.LENIENT).build();
    try {
      Parser p = Parsers.forFormat(Format.TEXT, o).parse(page.getBytes(StandardCharsets.UTF_8));
      for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
        if (e != Entry.SERIES) {
          continue;
        }
        Labels scraped = p.labels();
        Labels.Builder b = Labels.builder();
        target.forEach(b::set);
        for (int i = 0; i < scraped.size(); i++) {
          b.set(scraped.name(i), scraped.value(i));
        }
        app.append(0, b.build(), t, p.value());
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot load a simulated page: " + e.getMessage(), e);
    }
  }

  private static Labels labels(String name, Map<String, String> target) {
    Labels.Builder b = Labels.builder().set("__name__", name);
    target.forEach(b::set);
    return b.build();
  }
}
