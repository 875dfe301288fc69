package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.model.relabel.Relabel;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.TooFarInFutureException;
import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import dev.infermon.textparse.SymbolTable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Parses one page and appends its samples: Prometheus's {@code scrapeLoop.append}. The page goes
 * through named stages, the second half of the design's fetch → decompress → parse → relabel →
 * limits → append (the first half is the {@link Scraper}'s: {@link Http1Scraper} or {@link
 * HttpScraper}, then {@link Bodies}):
 *
 * <ol>
 *   <li>{@link #parser parse}: the parser for the page's Content-Type, lenient as Prometheus's
 *       scrape parsers; HELP, TYPE and UNIT lines go to {@link #metadata}, and a family's metadata
 *       to storage before its first series ({@link #recordMetadata});
 *   <li>per series ({@link #series}): the {@link ScrapeCache} by the series' bytes, and only on a
 *       miss {@link #relabel} (honor_labels, target labels, metric_relabel_configs; a dropped
 *       series is remembered as dropped) and {@link #checkLimits the label limits};
 *   <li>{@link #overSampleLimit sample_limit}, then {@link #append}: honor_timestamps, the storage
 *       append (out-of-order, duplicate and out-of-bounds samples, too old or too far in the
 *       future, are counted, not fatal), the cache entry, and staleness tracking;
 *   <li>when the page was good, {@link #markStale}: staleness markers for series that were in the
 *       previous scrape and are not in this one.
 * </ol>
 *
 * <p>A limit or a parse error fails the whole page: {@link Result#error()} is set and the caller
 * rolls the transaction back. Not thread-safe: one per scrape loop.
 */
final class Ingest {
  /**
   * What one page gave. {@code outOfBounds} counts every sample outside the storage's time range,
   * {@code tooFarInFuture} those of them beyond its future window; {@code firstOutOfBounds} is the
   * first one's error (series, time, limit), for the log.
   */
  record Result(
      int total,
      int added,
      int seriesAdded,
      int outOfOrder,
      int duplicate,
      int outOfBounds,
      String error,
      int tooFarInFuture,
      String firstOutOfBounds) {}

  /** The longest line the parser takes (its own bound); Prometheus has no line limit. */
  private static final int MAX_LINE_BYTES = 1 << 30;

  private final PoolSettings settings;
  private final Labels targetLabels;
  private final ScrapeCache cache;
  private final ParserOptions parserOptions;
  // One symbol table per scrape thread rather than per target: a fleet's pages share nearly all
  // their names and values (metric and label names, buckets, models), so 100 targets kept 100
  // copies of the same ~400 symbols (7 MB at 100 vLLM pods); a worker thread's table learns them
  // once. The parse runs on the thread that calls append, and a table is not shared between
  // threads.
  private static final ThreadLocal<SymbolTable> SYMBOLS = ThreadLocal.withInitial(SymbolTable::new);
  private final Map<String, Metadata> metadata = new HashMap<>();
  // The families of the last pages in page order, with their metadata (recordMetadata).
  private String[] pageFamilies = new String[0];
  private Metadata[] pageMetadata = new Metadata[0];
  private int familyIndex;
  // The metadata lines of the last pages in page order: hash of the line, family name, and the
  // type (MetricType) or text (String) it gave (metadataLine).
  private long[] lineHashes = new long[0];
  private String[] lineNames = new String[0];
  private Object[] lineValues = new Object[0];
  private int lineIndex;
  // The page being appended, shared by the stages: the family whose metadata lines came last and
  // await its first series (null when none), the counts of the Result, and the first error.
  private String family;
  private MetricType familyType;
  private String familyHelp;
  private String familyUnit;
  private int total;
  private int added;
  private int seriesAdded;
  private int outOfOrder;
  private int duplicate;
  private int outOfBounds;
  private int tooFarInFuture;
  private String firstOutOfBounds;
  private boolean sampleLimitHit;
  private String error;

  Ingest(PoolSettings settings, Labels targetLabels, ScrapeCache cache) {
    this.settings = settings;
    this.targetLabels = targetLabels;
    this.cache = cache;
    // Scrapes check the grammar only, as Prometheus's scrape parsers do: a target whose
    // OpenMetrics page bends a family rule (vLLM's Rust front end serves OpenMetrics only) must
    // still be scraped. `infermon check metrics` is where the strict rules apply.
    // Nor does the parser apply ceilings of its own: an unset limit is no limit, as in Prometheus,
    // and configured label limits are checked after relabeling (checkLimits), where Prometheus
    // checks them and with its messages.
    this.parserOptions =
        ParserOptions.builder()
            .conformance(Conformance.LENIENT)
            .maxBodyBytes(Bodies.limit(settings.bodySizeLimit()))
            .maxLineBytes(MAX_LINE_BYTES)
            .maxLabels(Integer.MAX_VALUE)
            .maxLabelNameBytes(Integer.MAX_VALUE)
            .maxLabelValueBytes(Integer.MAX_VALUE)
            .build();
  }

  /**
   * Appends the samples of {@code body[0, length)} at {@code defaultTime}; an empty page ({@code
   * length == 0}) appends nothing and marks every series of the previous scrape stale, which is how
   * a failed scrape is recorded.
   */
  Result append(Appender app, byte[] body, int length, String contentType, long defaultTime) {
    try {
      return appendPage(app, body, length, contentType, defaultTime);
    } finally {
      // The probe points into the page: let the page go between scrapes (a page per target).
      cache.releaseProbe();
    }
  }

  private Result appendPage(
      Appender app, byte[] body, int length, String contentType, long defaultTime) {
    startPage();
    if (length > 0) {
      Parser p = parser(body, length, contentType);
      try {
        for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
          if (e == Entry.SERIES) {
            if (!series(app, p, defaultTime)) {
              break;
            }
          } else if (e == Entry.TYPE || e == Entry.HELP || e == Entry.UNIT) {
            metadata(p, e);
          }
        }
      } catch (ParseException e) {
        error = e.getMessage();
      }
    }
    if (error == null && sampleLimitHit) {
      error = "sample limit exceeded";
    }
    if (error == null) {
      markStale(app, defaultTime);
      cache.iterDone(length > 0);
    }
    return new Result(
        total,
        added,
        seriesAdded,
        outOfOrder,
        duplicate,
        outOfBounds,
        error,
        tooFarInFuture,
        firstOutOfBounds);
  }

  private void startPage() {
    cache.iterStart();
    familyIndex = 0;
    lineIndex = 0;
    family = null;
    total = 0;
    added = 0;
    seriesAdded = 0;
    outOfOrder = 0;
    duplicate = 0;
    outOfBounds = 0;
    tooFarInFuture = 0;
    firstOutOfBounds = null;
    sampleLimitHit = false;
    error = null;
  }

  /** The parse stage: the page's parser, by its Content-Type, on this thread's symbol table. */
  private Parser parser(byte[] body, int length, String contentType) {
    return Parsers.forContentType(contentType, parserOptions).parse(body, 0, length, SYMBOLS.get());
  }

  /** A HELP, TYPE or UNIT line: the family's metadata so far, stored with its first series. */
  private void metadata(Parser p, Entry e) {
    int j = metadataLine(p, e);
    if (!lineNames[j].equals(family)) {
      family = lineNames[j];
      familyType = MetricType.UNKNOWN;
      familyHelp = "";
      familyUnit = "";
    }
    if (e == Entry.TYPE) {
      familyType = (MetricType) lineValues[j];
    } else if (e == Entry.HELP) {
      familyHelp = (String) lineValues[j];
    } else {
      familyUnit = (String) lineValues[j];
    }
  }

  /**
   * One series line through the per-series stages: labels (cached, or relabeled and checked),
   * sample limit, append.
   *
   * @return false when the page failed ({@link #error} set): stop reading it
   */
  private boolean series(Appender app, Parser p, long defaultTime) {
    total++;
    if (family != null) {
      recordMetadata(app, family, familyType, familyHelp, familyUnit);
      family = null;
    }
    boolean explicitTime = p.hasTimestamp() && settings.honorTimestamps();
    long t = explicitTime ? p.timestamp() : defaultTime;
    SeriesKey key =
        cache.probe(p.seriesBuffer(), p.seriesOffset(), p.seriesLength(), p.seriesHash());
    ScrapeCache.Entry ce = cache.get(key);
    Labels lset;
    if (ce != null) {
      lset = ce.labels;
    } else {
      if (cache.isDropped(key)) {
        return true;
      }
      lset = relabel(key, p.labels());
      if (lset == null) {
        return true;
      }
      error = checkLimits(lset);
      if (error != null) {
        return false;
      }
    }
    if (overSampleLimit()) {
      return true;
    }
    append(app, key, ce, lset, t, p.value(), explicitTime);
    return true;
  }

  /**
   * The relabel stage of a series the cache does not know: {@link #mutate}; a series it drops (or
   * leaves without labels) is remembered as dropped, and null returned.
   */
  private Labels relabel(SeriesKey key, Labels scraped) {
    Labels lset = mutate(scraped);
    if (lset == null || lset.isEmpty()) {
      cache.addDropped(key);
      return null;
    }
    return lset;
  }

  /**
   * Prometheus's sample_limit: once reached nothing more is appended, but samples are still counted
   * for the report (the page then fails).
   */
  private boolean overSampleLimit() {
    if (settings.sampleLimit() > 0 && added >= settings.sampleLimit()) {
      sampleLimitHit = true;
      added++;
      return true;
    }
    return false;
  }

  /**
   * The append stage: the sample to storage (rejections counted by reason), then the series into
   * the cache, with the storage's own label set and reference, and tracked for staleness unless its
   * timestamp came from the page.
   *
   * @param ce the series' cache entry, null on a miss
   */
  private void append(
      Appender app,
      SeriesKey key,
      ScrapeCache.Entry ce,
      Labels lset,
      long t,
      double v,
      boolean explicitTime) {
    long ref = ce == null ? 0 : ce.ref;
    boolean appended = false;
    try {
      ref = app.append(ref, lset, t, v);
      appended = true;
    } catch (OutOfOrderSampleException ex) {
      outOfOrder++;
    } catch (DuplicateSampleException ex) {
      duplicate++;
    } catch (OutOfBoundsException ex) {
      // Counted and skipped, as Prometheus's scrape loop does: the rest of the page goes on.
      if (outOfBounds++ == 0) {
        firstOutOfBounds = ex.getMessage();
      }
      if (ex instanceof TooFarInFutureException) {
        tooFarInFuture++;
      }
    }
    if (ce == null) {
      // Keep the storage's label set rather than a second copy per series.
      ce = cache.add(key, appended ? app.storedLabels(ref, lset) : lset, ref);
      if (appended) {
        seriesAdded++;
      }
    } else {
      ce.ref = ref;
    }
    if (appended) {
      added++;
    }
    if (!explicitTime) {
      cache.trackStaleness(ce);
    }
  }

  /** Staleness markers for the series of the previous scrape that this page did not have. */
  private void markStale(Appender app, long t) {
    cache.forEachStale(
        l -> {
          try {
            app.append(0, l, t, StaleNaN.VALUE);
          } catch (OutOfOrderSampleException
              | DuplicateSampleException
              | OutOfBoundsException ignored) {
            // The series already has a newer sample: nothing to mark.
          }
        });
  }

  /**
   * Reads the current HELP, TYPE or UNIT line into position {@code j} of the line tables and
   * returns {@code j}. A page repeats its metadata lines every scrape, in the same order: a line
   * whose bytes hash as the one at its position last time said the same, so its name and value are
   * taken from there instead of being decoded and interned again (about 5% of the scrape path).
   */
  private int metadataLine(Parser p, Entry e) {
    int j = lineIndex++;
    long h = p.metadataHash();
    if (j < lineHashes.length) {
      if (lineHashes[j] == h && lineNames[j] != null) {
        return j;
      }
    } else {
      int n = Math.max(32, lineHashes.length * 2);
      lineHashes = Arrays.copyOf(lineHashes, n);
      lineNames = Arrays.copyOf(lineNames, n);
      lineValues = Arrays.copyOf(lineValues, n);
    }
    lineHashes[j] = h;
    lineNames[j] = p.familyName();
    lineValues[j] = e == Entry.TYPE ? p.type() : e == Entry.HELP ? p.help() : p.unit();
    return j;
  }

  /**
   * Passes a family's metadata to storage when it changed. A page lists its families in the same
   * order every scrape, so the family at the same position last time is checked first: in the
   * steady state that is a few string comparisons and no allocation (a map lookup and a new record
   * per family cost about 5% of the scrape path).
   */
  private void recordMetadata(
      Appender app, String family, MetricType type, String help, String unit) {
    int k = familyIndex++;
    if (k < pageFamilies.length) {
      Metadata last = pageMetadata[k];
      if (last != null
          && family.equals(pageFamilies[k])
          && last.type() == type
          && last.help().equals(help)
          && last.unit().equals(unit)) {
        return;
      }
    } else {
      int n = Math.max(16, pageFamilies.length * 2);
      pageFamilies = Arrays.copyOf(pageFamilies, n);
      pageMetadata = Arrays.copyOf(pageMetadata, n);
    }
    Metadata md = new Metadata(type, help, unit);
    pageFamilies[k] = family;
    pageMetadata[k] = md;
    if (!md.equals(metadata.get(family))) {
      metadata.put(family, md);
      app.updateMetadata(targetLabels.toBuilder().set(Labels.METRIC_NAME, family).build(), md);
    }
  }

  /**
   * Prometheus's {@code mutateSampleLabels}: with honor_labels, target labels fill in only what the
   * page lacks; otherwise target labels win and the page's conflicting values move to {@code
   * exported_<name>} (more {@code exported_} prefixes while that name is taken, shortest names
   * first). Then metric_relabel_configs; null when a rule dropped the series.
   */
  Labels mutate(Labels scraped) {
    Labels.Builder lb = scraped.toBuilder();
    if (settings.honorLabels()) {
      for (int i = 0; i < targetLabels.size(); i++) {
        if (!scraped.has(targetLabels.name(i))) {
          lb.set(targetLabels.name(i), targetLabels.value(i));
        }
      }
    } else {
      java.util.List<String[]> conflicts = null;
      for (int i = 0; i < targetLabels.size(); i++) {
        String existing = scraped.get(targetLabels.name(i));
        if (!existing.isEmpty()) {
          if (conflicts == null) {
            conflicts = new java.util.ArrayList<>();
          }
          conflicts.add(new String[] {targetLabels.name(i), existing});
        }
        lb.set(targetLabels.name(i), targetLabels.value(i));
      }
      if (conflicts != null) {
        conflicts.sort(java.util.Comparator.comparingInt(c -> c[0].length()));
        for (String[] c : conflicts) {
          String name = c[0];
          while (true) {
            name = "exported_" + name;
            if (lb.get(name).isEmpty()) {
              lb.set(name, c[1]);
              break;
            }
          }
        }
      }
    }
    Labels res = lb.build();
    return settings.metricRelabelConfigs().isEmpty()
        ? res
        : Relabel.process(res, settings.metricRelabelConfigs());
  }

  /** Prometheus's {@code verifyLabelLimits}, with its messages. */
  String checkLimits(Labels lset) {
    String met = truncate(lset.metricName());
    if (settings.labelLimit() > 0 && lset.size() > settings.labelLimit()) {
      return "label_limit exceeded (metric: "
          + met
          + ", number of labels: "
          + lset.size()
          + ", limit: "
          + settings.labelLimit()
          + ")";
    }
    for (int i = 0; i < lset.size(); i++) {
      int nameLen = utf8Length(lset.name(i));
      if (settings.labelNameLengthLimit() > 0 && nameLen > settings.labelNameLengthLimit()) {
        return "label_name_length_limit exceeded (metric: "
            + met
            + ", label name: "
            + truncate(lset.name(i))
            + ", length: "
            + nameLen
            + ", limit: "
            + settings.labelNameLengthLimit()
            + ")";
      }
      int valueLen = utf8Length(lset.value(i));
      if (settings.labelValueLengthLimit() > 0 && valueLen > settings.labelValueLengthLimit()) {
        return "label_value_length_limit exceeded (metric: "
            + met
            + ", label name: "
            + truncate(lset.name(i))
            + ", value: \""
            + truncate(lset.value(i))
            + "\", length: "
            + valueLen
            + ", limit: "
            + settings.labelValueLengthLimit()
            + ")";
      }
    }
    return null;
  }

  private static String truncate(String s) {
    return s.length() <= 50 ? s : s.substring(0, 50);
  }

  private static int utf8Length(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
