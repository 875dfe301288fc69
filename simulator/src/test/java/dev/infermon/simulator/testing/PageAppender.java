package dev.infermon.simulator.testing;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserFactory;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Appends one page, parsed with textparse, with target labels attached as a scrape would attach
 * them ({@code honor_labels} true or false); and {@code up}. Stateless.
 */
final class PageAppender {
  private static final ParserOptions LENIENT =
      ParserOptions.builder().conformance(Conformance.LENIENT).build();
  private static final ParserFactory TEXT = Parsers.forFormat(Format.TEXT, LENIENT);
  private static final ParserFactory OPENMETRICS = Parsers.forFormat(Format.OPENMETRICS, LENIENT);

  private PageAppender() {}

  /** {@code up{target} = value}. */
  static void up(Appender app, Map<String, String> target, long t, double value) {
    Labels.Builder up = Labels.builder().set("__name__", "up");
    target.forEach(up::set);
    app.append(0, up.build(), t, value);
  }

  /**
   * Every sample of {@code page} at {@code t} with {@code target}'s labels: with {@code
   * honorLabels} a page's label wins over the target's of the same name, else the target's wins and
   * the page's is kept as {@code exported_<name>}. Returns the samples appended.
   */
  static long append(
      Appender app,
      String page,
      Format format,
      Map<String, String> target,
      long t,
      boolean honorLabels)
      throws ParseException {
    ParserFactory f = format == Format.OPENMETRICS ? OPENMETRICS : TEXT;
    Parser p = f.parse(page.getBytes(StandardCharsets.UTF_8));
    long samples = 0;
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      if (e != Entry.SERIES) {
        continue;
      }
      Labels scraped = p.labels();
      Labels.Builder b = Labels.builder();
      if (honorLabels) {
        target.forEach(b::set);
      }
      for (int i = 0; i < scraped.size(); i++) {
        String name = scraped.name(i);
        if (!honorLabels && target.containsKey(name)) {
          name = "exported_" + name;
        }
        b.set(name, scraped.value(i));
      }
      if (!honorLabels) {
        target.forEach(b::set);
      }
      app.append(0, b.build(), t, p.value());
      samples++;
    }
    return samples;
  }
}
