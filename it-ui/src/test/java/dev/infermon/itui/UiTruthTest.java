package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.simulator.Backend;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.Scenario;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What the pages draw is what the data say, over a running infermon scraping a saturated simulated
 * fleet: a share's axis is 0-100 %, a latency's ticks are round durations, a heatmap's columns add
 * up to the histogram's count over the window, the engines page and the targets' badges show what
 * the inventory detected, a reason's family links to its catalog entry, and alert values carry
 * their rule's unit. Read from the pages' own data attributes (what the canvases show, as text).
 */
class UiTruthTest {
  static Path dir;
  static Harness harness;
  static Browser browser;
  static WebDriverWait wait;
  static final Duration HISTORY = Duration.ofMinutes(3);

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "headless Chromium not installed (" + Browser.CHROMIUM + ", " + Browser.DRIVER + ")");
    dir = Files.createTempDirectory("infermon-it-ui-truth-");
    // saturated: TTFT above the default alert's 1 s; no SM-activity fields: an empty GPU panel
    FleetConfig fleet =
        FleetConfig.builder()
            .seed(11)
            .scenario(Scenario.SATURATED)
            .smProfilingFields(false)
            .build();
    // three minutes of history: the heatmap's window and the step before it are stored at start
    harness = Harness.start(fleet, HISTORY, 1, dir);
    UiBrowserTest.awaitData(harness.baseUrl());
    browser = Browser.start(1440, 1000, false);
    wait = new WebDriverWait(browser.driver, Duration.ofSeconds(45));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (harness != null) {
      harness.close();
    }
    if (dir != null) {
      Harness.deleteQuietly(dir);
    }
  }

  @BeforeEach
  void drainConsole() {
    browser.consoleErrors();
  }

  void open(String pathAndQuery) {
    browser.driver.get(harness.baseUrl() + pathAndQuery);
  }

  void awaitDashboard() {
    wait.until(d -> Boolean.TRUE.equals(browser.js("return window.__dashboardDone === true")));
  }

  /**
   * Scrolls a panel into view (panels below the fold load when they are seen) and waits for its
   * chart's draw hook; on timeout the message says what the panel shows instead.
   */
  void awaitDrawn(WebElement b) {
    browser.js("arguments[0].scrollIntoView({block: 'center'})", b);
    wait.withMessage(() -> "chart never drawn; the panel shows: " + b.getText())
        .until(d -> b.getAttribute("data-y-ticks") != null);
  }

  WebElement body(String panel) {
    return browser.driver.findElement(By.cssSelector("[data-panel='" + panel + "'] .body"));
  }

  static String api(String pathAndQuery) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(harness.baseUrl() + pathAndQuery))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  @Test
  void aShareIsDrawnOnZeroToHundredPercent() {
    open("/dashboard?level=model&range=15m");
    awaitDashboard();
    WebElement b = body("model.success_rate");
    awaitDrawn(b);
    // at most 1 however flat the line is: never a 0-10,000 % axis around a constant 1
    assertThat(b.getAttribute("data-y-min")).isEqualTo("0");
    assertThat(b.getAttribute("data-y-max")).isEqualTo("1");
    List<String> ticks = List.of(b.getAttribute("data-y-ticks").split("\\|"));
    assertThat(ticks).first().isEqualTo("0 %");
    assertThat(ticks).last().isEqualTo("100 %");
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  void latencyTicksAreRoundDurations() {
    open("/dashboard?level=model&range=15m");
    awaitDashboard();
    WebElement b = body("model.ttft");
    awaitDrawn(b);
    List<String> ticks = List.of(b.getAttribute("data-y-ticks").split("\\|"));
    assertThat(ticks).hasSizeGreaterThanOrEqualTo(2);
    assertThat(b.getAttribute("data-y-min")).isEqualTo("0");
    Set<String> units = new TreeSet<>();
    List<Long> values = new java.util.ArrayList<>();
    for (String t : ticks) {
      assertThat(t).as("a whole number and a unit: %s", ticks).matches("\\d+ (µs|ms|s|min|h)");
      units.add(t.split(" ")[1]);
      values.add(Long.parseLong(t.split(" ")[0]));
    }
    assertThat(units).as("one unit per axis").hasSize(1);
    long incr = values.get(1) - values.get(0);
    assertThat(incr).isIn(1L, 2L, 5L, 10L, 15L, 20L, 30L, 50L, 100L, 200L, 500L);
    for (int i = 1; i < values.size(); i++) {
      assertThat(values.get(i) - values.get(i - 1)).isEqualTo(incr);
      assertThat(values.get(i) % incr).isZero();
    }
  }

  @Test
  void aHeatmapColumnIsTheCountOfItsStep() throws Exception {
    // a window inside the backfilled history, a step before its start included; it ends a few
    // seconds ago, so no scrape of the window is still being written
    long to = System.currentTimeMillis() - 5_000;
    long from = to - 60_000;
    open("/dashboard?level=model&backend=vllm&lazy=0&from=" + from + "&to=" + to);
    awaitDashboard();
    WebElement b = body("model.generation_length_heatmap");
    wait.until(d -> b.getAttribute("data-total") != null);
    double first = Double.parseDouble(b.getAttribute("data-first"));
    double last = Double.parseDouble(b.getAttribute("data-last"));
    int columns = Integer.parseInt(b.getAttribute("data-columns"));
    double step = (last - first) / (columns - 1);
    // the histogram's own count, read at both ends: what the window's requests were
    String count = "sum(vllm:request_generation_tokens_count{backend=\"vllm\"})";
    double want = instant(count, last) - instant(count, first - step);
    assertThat(want).as("requests in the window").isPositive();
    assertThat(Double.parseDouble(b.getAttribute("data-total"))).isEqualTo(want);
    // the PromQL says it: the gain over one step, not a 5-minute increase
    String promql =
        browser
            .driver
            .findElement(By.cssSelector("[data-panel='model.generation_length_heatmap'] .q code"))
            .getAttribute("textContent");
    assertThat(promql).contains("offset " + Math.round(step) + "s").doesNotContain("[5m]");
  }

  /**
   * Over both engines (no backend filter) the panel draws one heatmap per engine, each on its own
   * bounds: the server marks each engine's buckets and never sums them by {@code le}, and each
   * engine's columns add up to that engine's own count.
   */
  @Test
  void aHeatmapOverTwoEnginesIsOnePerEngine() throws Exception {
    long to = System.currentTimeMillis() - 5_000;
    long from = to - 60_000;
    open("/dashboard?level=model&lazy=0&from=" + from + "&to=" + to);
    awaitDashboard();
    WebElement b = body("model.generation_length_heatmap");
    wait.until(d -> b.findElements(By.cssSelector(".heat-engine [data-total]")).size() == 2);
    Map<String, String> counts =
        Map.of(
            "vllm", "sum(vllm:request_generation_tokens_count)",
            // both spellings: the fleet runs SGLang releases that use either
            "sglang", "sum({__name__=~\"sglang[:_]generation_tokens_histogram_count\"})");
    Set<String> seen = new TreeSet<>();
    for (WebElement box : b.findElements(By.cssSelector(".heat-engine"))) {
      String engine = box.getAttribute("data-engine");
      seen.add(engine);
      assertThat(box.getText()).contains(engine);
      WebElement map = box.findElement(By.cssSelector("[data-total]"));
      double first = Double.parseDouble(map.getAttribute("data-first"));
      double last = Double.parseDouble(map.getAttribute("data-last"));
      double step = (last - first) / (Integer.parseInt(map.getAttribute("data-columns")) - 1);
      String count = counts.get(engine);
      double want = instant(count, last) - instant(count, first - step);
      assertThat(want).as(engine + " requests in the window").isPositive();
      assertThat(Double.parseDouble(map.getAttribute("data-total"))).as(engine).isEqualTo(want);
    }
    assertThat(seen).containsExactly("sglang", "vllm");
  }

  /**
   * With {@code ?top=2} (the URL's override of the charts' limit) over a fleet of more pods, a
   * per-pod chart draws the two that peaked highest and says how many there are, while the pod
   * table, from its own summary request, still lists every pod; at the default limit (more than
   * this fleet's pods) nothing is cut and no note is shown.
   */
  @Test
  void aPerPodChartDrawsItsTopPodsWithANoteWhileThePodTableListsEveryPod() throws Exception {
    Set<String> inference = new TreeSet<>();
    for (PodInfo p : harness.fleet.inventory()) {
      if (p.backend() != Backend.DCGM) {
        inference.add(p.name());
      }
    }
    long now = System.currentTimeMillis() / 1000;
    com.fasterxml.jackson.databind.JsonNode every =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(
                api(
                    "/api/v1/llm/dashboard?panels=pod.kv_usage&start="
                        + (now - 900)
                        + "&end="
                        + now
                        + "&step=15"))
            .path("data")
            .path("panels")
            .get(0)
            .path("queries")
            .get(0)
            .path("series");
    Set<String> withKv = new TreeSet<>();
    every.forEach(x -> withKv.add(x.path("labels").path("pod").asText()));
    assertThat(withKv).as("pods with a KV-cache usage").hasSizeGreaterThan(2);
    assertThat(inference).containsAll(withKv);

    open("/dashboard?level=pod&range=15m&lazy=0&top=2");
    awaitDashboard();
    WebElement card = browser.driver.findElement(By.cssSelector("[data-panel='pod.kv_usage']"));
    awaitDrawn(body("pod.kv_usage"));
    assertThat(card.getAttribute("data-series")).as("lines drawn").isEqualTo("2");
    WebElement note = card.findElement(By.cssSelector(".top-note"));
    assertThat(note.getAttribute("data-shown")).isEqualTo("2");
    assertThat(note.getAttribute("data-total")).isEqualTo(String.valueOf(withKv.size()));
    assertThat(note.getText()).startsWith("2 of " + withKv.size() + " pods drawn");
    wait.until(d -> !d.findElements(By.cssSelector("#pod-table table")).isEmpty());
    Set<String> rows =
        browser.driver.findElements(By.cssSelector("#pod-table tbody tr")).stream()
            .map(r -> r.getAttribute("data-pod"))
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(rows).as("every pod in the table").containsAll(withKv);
    assertThat(inference).containsAll(rows);
    assertThat(browser.consoleErrors()).isEmpty();

    open("/dashboard?level=pod&range=15m&lazy=0");
    awaitDashboard();
    awaitDrawn(body("pod.kv_usage"));
    WebElement all = browser.driver.findElement(By.cssSelector("[data-panel='pod.kv_usage']"));
    assertThat(all.getAttribute("data-series")).isEqualTo(String.valueOf(withKv.size()));
    assertThat(all.findElements(By.cssSelector(".top-note"))).isEmpty();
  }

  /** The one value of an instant query at {@code timeSeconds}. */
  static double instant(String query, double timeSeconds) throws Exception {
    String body =
        api(
            "/api/v1/query?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&time="
                + String.format(Locale.ROOT, "%.3f", timeSeconds));
    Matcher m = Pattern.compile("\"value\":\\[[0-9.]+,\"([^\"]+)\"\\]").matcher(body);
    assertThat(m.find()).as(body).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /** The engine the inventory should detect for a simulated pod. */
  static String engineOf(PodInfo p) {
    Backend b = p.backend();
    return b == Backend.VLLM || b == Backend.VLLM_PD
        ? "vllm"
        : b == Backend.SGLANG || b == Backend.SGLANG_PD ? "sglang" : "dcgm";
  }

  @Test
  void theEnginesPageListsTheFleetsEnginesAndReleases() {
    open("/engines");
    wait.until(d -> !d.findElements(By.cssSelector("table.engine-targets tbody tr")).isEmpty());
    Set<String> engines =
        harness.fleet.inventory().stream()
            .map(UiTruthTest::engineOf)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> shown =
        browser.driver.findElements(By.cssSelector("table.engines tbody tr")).stream()
            .map(e -> e.getAttribute("data-engine"))
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(shown).isEqualTo(engines);
    List<WebElement> rows =
        browser.driver.findElements(By.cssSelector("table.engine-targets tbody tr"));
    assertThat(rows).hasSize(harness.fleet.inventory().size());
    for (PodInfo p : harness.fleet.inventory()) {
      String instance = harness.fleetServer.hostPort(p);
      WebElement row =
          browser.driver.findElement(
              By.cssSelector("table.engine-targets tr[data-instance='" + instance + "']"));
      List<WebElement> cells = row.findElements(By.tagName("td"));
      assertThat(cells.get(1).getText()).as(p.name()).isEqualTo(engineOf(p));
      if (p.backend() == Backend.VLLM && p.version().equals("0.11")) {
        // the older pod's release is told apart from the current ones'
        assertThat(cells.get(2).getText()).as(p.name()).contains("0.11");
        assertThat(cells.get(3).getText()).isEqualTo("vllm:");
      }
      if (engineOf(p).equals("vllm")) {
        assertThat(cells.get(2).getText()).as(p.name()).isNotEqualTo("release unknown");
      }
    }
    // the catalog below has an anchor per family
    assertThat(browser.driver.findElements(By.id("family-vllm:num_requests_waiting"))).hasSize(1);
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  void everyTargetHasABadgeWithItsEngineAndRelease() {
    open("/targets");
    wait.until(
        d -> !d.findElements(By.cssSelector("details.group tbody tr .badge.engine")).isEmpty());
    for (PodInfo p : harness.fleet.inventory()) {
      WebElement link =
          browser.driver.findElement(
              By.cssSelector(
                  "details.group tbody tr a[href='" + harness.fleetServer.url(p) + "']"));
      WebElement badge =
          link.findElement(By.xpath("./following-sibling::a[contains(@class, 'engine')]"));
      assertThat(badge.getText()).as(p.name()).startsWith(engineOf(p));
      if (!engineOf(p).equals("dcgm")) {
        assertThat(badge.getText()).as(p.name()).matches("[a-z]+ \\d.*");
      }
    }
  }

  @Test
  void aReasonLinksToTheFamilyItNames() {
    open("/dashboard?level=gpu&range=15m");
    awaitDashboard();
    WebElement sm =
        browser.driver.findElement(By.cssSelector("[data-panel='gpu.sm_active'] .empty .reason"));
    WebElement link = wait.until(d -> sm.findElement(By.cssSelector("a.family")));
    String family = link.getText();
    assertThat(family).startsWith("DCGM_FI_");
    link.click();
    wait.until(d -> d.getCurrentUrl().contains("/engines#family-"));
    WebElement row =
        wait.until(d -> d.findElement(By.cssSelector("tr.hit[data-family='" + family + "']")));
    // its catalog row, with the source it cites
    assertThat(row.getText()).contains(family).containsPattern("dcgm[a-z-]*\\.md §");
    assertThat(row.isDisplayed()).isTrue();
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  void alertValuesCarryTheirRulesUnit() throws Exception {
    // the saturated fleet's TTFT is above 1 s: the alert is pending or firing within seconds
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    List<WebElement> ttft = List.of();
    while (ttft.isEmpty() && System.nanoTime() < deadline) {
      open("/alerts");
      wait.until(
          d ->
              !d.findElements(By.cssSelector("#active-alerts table, #active-alerts .empty"))
                  .isEmpty());
      ttft =
          browser.driver.findElements(By.cssSelector("#active-alerts tr[data-state]")).stream()
              .filter(r -> r.getText().contains("LLMTimeToFirstTokenHigh"))
              .toList();
      if (ttft.isEmpty()) {
        Thread.sleep(5000);
      }
    }
    assertThat(ttft).as("a TTFT alert within two minutes").isNotEmpty();
    for (WebElement r : ttft) {
      List<WebElement> cells = r.findElements(By.tagName("td"));
      WebElement value = cells.get(cells.size() - 1);
      double raw = Double.parseDouble(value.getAttribute("title"));
      assertThat(raw).isGreaterThan(1);
      String text = value.getText();
      assertThat(text).matches("[0-9.]+ (s|min)");
      double shown = Double.parseDouble(text.split(" ")[0]) * (text.endsWith("min") ? 60 : 1);
      assertThat(shown).isCloseTo(raw, org.assertj.core.data.Percentage.withPercentage(1));
    }
  }
}
