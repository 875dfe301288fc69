package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.textparse.ParseException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Inventories one endpoint on demand: fetches its {@code /metrics}, parses it with textparse and
 * detects engine, release range and features, without storing anything. Thread-safe.
 */
public final class LiveScrape {
  private HttpClient client; // built on first use (building one sets up TLS); guarded by this
  private final EngineDetector detector;
  private final Duration timeout;

  public LiveScrape(Catalog catalog, Duration timeout) {
    this.detector = new EngineDetector(catalog);
    this.timeout = timeout;
  }

  /**
   * Scrapes {@code url} once.
   *
   * @throws IllegalArgumentException when the URL is not http(s)
   * @throws IOException when the fetch fails, the status is not 200 or the page does not parse
   */
  public TargetInventory scrape(URI url) throws IOException, InterruptedException {
    if (url == null || url.getScheme() == null || !url.getScheme().startsWith("http")) {
      throw new IllegalArgumentException("not an http(s) URL: " + url);
    }
    HttpRequest req =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Accept", "text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
            .GET()
            .build();
    HttpResponse<byte[]> resp = client().send(req, HttpResponse.BodyHandlers.ofByteArray());
    if (resp.statusCode() != 200) {
      throw new IOException(url + ": HTTP status " + resp.statusCode());
    }
    return fromPage(
        url.toString(), resp.body(), resp.headers().firstValue("Content-Type").orElse(null));
  }

  private synchronized HttpClient client() {
    if (client == null) {
      client = HttpClient.newBuilder().connectTimeout(timeout).build();
    }
    return client;
  }

  /** Inventories a page already fetched. */
  public TargetInventory fromPage(String instance, byte[] page, String contentType)
      throws IOException {
    Map<String, FamilyInfo> families;
    try {
      families = PageFamilies.parse(page, contentType);
    } catch (ParseException e) {
      throw new IOException(instance + ": not a metrics page: " + e.getMessage(), e);
    }
    return new TargetInventory(
        Map.of("instance", instance), true, detector.detect(families), families);
  }
}
