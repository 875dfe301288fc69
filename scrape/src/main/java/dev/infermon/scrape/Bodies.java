package dev.infermon.scrape;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * What every HTTP fetcher does with a received body: inflates a gzipped one, streaming, up to the
 * body size limit on the decompressed bytes, so a small compressed bomb is refused without being
 * held whole. Stateless.
 */
final class Bodies {
  /**
   * The body size limit when {@code body_size_limit} is unset (0 means no limit, as in Prometheus):
   * the largest page a Java array holds.
   */
  static final int NO_LIMIT = Integer.MAX_VALUE - 16;

  private Bodies() {}

  /** The limit a fetcher applies for a configured {@code body_size_limit} in bytes (0: none). */
  static long limit(long configured) {
    return configured > 0 ? configured : NO_LIMIT;
  }

  /**
   * The page of a received body {@code raw[0, length)}.
   *
   * @param encoding the response's {@code Content-Encoding} (empty when none)
   * @param threadBuffers inflate into this thread's reused array ({@link PageBuffers}); only for a
   *     page consumed on this thread before its next fetch
   * @throws Scraper.ScrapeFailure "body size limit exceeded", or why the body does not inflate
   */
  static Scraper.Page page(
      byte[] raw,
      int length,
      String contentType,
      String encoding,
      long bodyLimit,
      boolean threadBuffers)
      throws Scraper.ScrapeFailure {
    if (!encoding.toLowerCase(Locale.ROOT).equals("gzip")) {
      if (length > bodyLimit) {
        throw new Scraper.ScrapeFailure("body size limit exceeded");
      }
      return new Scraper.Page(raw, length, contentType);
    }
    int first = Math.max(1024, Math.min(length * 8, (int) bodyLimit + 1));
    byte[] out = threadBuffers ? PageBuffers.inflated(first) : new byte[first];
    int n = 0;
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(raw, 0, length))) {
      while (true) {
        if (n == out.length) {
          if (n > bodyLimit) {
            throw new Scraper.ScrapeFailure("body size limit exceeded");
          }
          out = Arrays.copyOf(out, (int) Math.min(bodyLimit + 1, out.length * 2L));
          if (threadBuffers) {
            PageBuffers.keepInflated(out);
          }
        }
        int r = in.read(out, n, out.length - n);
        if (r < 0) {
          break;
        }
        n += r;
        if (n > bodyLimit) {
          throw new Scraper.ScrapeFailure("body size limit exceeded");
        }
      }
    } catch (IOException e) {
      throw new Scraper.ScrapeFailure("decompressing the body: " + e.getMessage(), e);
    }
    return new Scraper.Page(out, n, contentType);
  }
}
