package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.server.demo.Demo;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import java.io.PrintWriter;
import java.io.StringWriter;
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
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's efficiency sections in a real headless Chromium, with a GPU-hour price in {@code
 * llm.cost}: {@code infermon demo}'s machinery serves one model on three vLLM pods with 30 minutes
 * of backfilled history. At the model level the tokens per GPU-second, idle GPUs and cost per
 * million tokens are drawn, one series for the model; at the pod level tokens per GPU-second and
 * idle GPUs, one series per pod. The cost panel's PromQL carries the configured price, its axis
 * spans what that PromQL returns over the window, and at one instant its value times the tokens per
 * GPU-second is the price per GPU-second times a million (the panels' definition: the GPUs cancel).
 */
class UiEfficiencyTest {
  static final double PRICE = 2.5;
  static final int PODS = 3;
  static Path dir;
  static Demo demo;
  static Browser browser;
  static WebDriverWait wait;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "headless Chromium not installed (" + Browser.CHROMIUM + ", " + Browser.DRIVER + ")");
    dir = Files.createTempDirectory("infermon-it-ui-efficiency-");
    FleetConfig fleet =
        FleetConfig.builder()
            .vllmPods(PODS)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .build();
    demo =
        Demo.start(
            new Demo.Options(fleet, List.of(), Duration.ofMinutes(30), Duration.ofSeconds(5)),
            Harness.demoSettings(
                "llm:\n  cost: {currency: USD, default_gpu_hour_price: " + PRICE + "}\n"),
            "0.1.0-it-ui",
            new PrintWriter(new StringWriter()));
    browser = Browser.start(1440, 1000, false);
    wait = new WebDriverWait(browser.driver, Duration.ofSeconds(90));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (demo != null) {
      demo.close();
    }
    if (dir != null) {
      Harness.deleteQuietly(dir);
    }
  }

  static String base() {
    return demo.uiUrl().replaceAll("/$", "");
  }

  /** The panel once drawn or empty; fails naming what an empty one says. */
  WebElement drawn(String panel, int series) {
    WebElement el = browser.driver.findElement(By.cssSelector("[data-panel='" + panel + "']"));
    browser.js("arguments[0].scrollIntoView({block: 'center'})", el);
    wait.withMessage(() -> panel + " never drawn; it shows: " + el.getText())
        .until(d -> List.of("drawn", "empty", "error").contains(el.getAttribute("data-state")));
    assertThat(el.getAttribute("data-state")).as(panel + ": " + el.getText()).isEqualTo("drawn");
    assertThat(el.getAttribute("data-series"))
        .as(panel + ": series")
        .isEqualTo(String.valueOf(series));
    WebElement body = el.findElement(By.cssSelector(".body"));
    wait.withMessage(() -> panel + ": chart never drawn")
        .until(d -> body.getAttribute("data-y-ticks") != null);
    return el;
  }

  @Test
  void theEfficiencySectionsDrawTheirPanelsAndTheCostCarriesThePrice() throws Exception {
    // a window inside the backfilled history, ending a few seconds ago
    long to = System.currentTimeMillis() - 5_000;
    long from = to - Duration.ofMinutes(15).toMillis();
    browser.driver.get(base() + "/dashboard?level=model&lazy=0&from=" + from + "&to=" + to);
    wait.until(d -> Boolean.TRUE.equals(browser.js("return window.__dashboardDone === true")));
    drawn("efficiency.tokens_per_gpu_second", 1);
    drawn("efficiency.idle_gpus", 1);
    WebElement cost = drawn("efficiency.cost_per_million_tokens", 1);
    String costQuery = promql(cost);
    // the default price multiplies the GPUs no per-model price covers (docs/dashboard.md)
    assertThat(costQuery).as("the price in the cost panel's PromQL").contains(" * " + PRICE + ")");
    List<Double> values = range(costQuery, from, to);
    assertThat(values).as(costQuery).isNotEmpty();
    WebElement body = cost.findElement(By.cssSelector(".body"));
    double yMin = Double.parseDouble(body.getAttribute("data-y-min"));
    double yMax = Double.parseDouble(body.getAttribute("data-y-max"));
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    // the page's step may differ from this read's: its axis spans the same values, not the same
    // extremes to the digit
    assertThat(yMax)
        .as("the cost axis's top, the PromQL's max " + max)
        .isGreaterThanOrEqualTo(0.95 * max);
    assertThat(yMin)
        .as("the cost axis's bottom, the PromQL's min " + min)
        .isLessThanOrEqualTo(1.05 * min);
    // cost per million = price x GPUs / 3600 / (tokens/s) x 1e6 and tokens per GPU-second =
    // (tokens/s) / GPUs: their product is the price per GPU-second times a million
    String perGpu =
        promql(
            browser.driver.findElement(
                By.cssSelector("[data-panel='efficiency.tokens_per_gpu_second']")));
    double t = (to - 60_000) / 1000.0;
    assertThat(instant(costQuery, t) * instant(perGpu, t))
        .isCloseTo(PRICE / 3600 * 1e6, within(PRICE / 3600 * 1e6 * 1e-9));
    assertThat(browser.consoleErrors()).isEmpty();

    browser.driver.get(base() + "/dashboard?level=pod&lazy=0&from=" + from + "&to=" + to);
    wait.until(d -> Boolean.TRUE.equals(browser.js("return window.__dashboardDone === true")));
    drawn("efficiency_pod.tokens_per_gpu_second", PODS);
    drawn("efficiency_pod.idle_gpus", PODS);
    Files.createDirectories(Path.of("../web/target/screenshots"));
    browser.screenshot(Path.of("../web/target/screenshots/efficiency-pod.png"));
    assertThat(browser.consoleErrors()).isEmpty();
  }

  /** The panel's one PromQL query, as its "PromQL" part shows it. */
  static String promql(WebElement panel) {
    List<WebElement> codes = panel.findElements(By.cssSelector(".q code"));
    assertThat(codes).as(panel.getAttribute("data-panel") + ": one query").hasSize(1);
    return codes.get(0).getAttribute("textContent");
  }

  /** Every value of {@code query} over [from, to] (ms) at a 15 s step. */
  static List<Double> range(String query, long from, long to) throws Exception {
    JsonNode d =
        get(
            "/api/v1/query_range?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&start="
                + from / 1000
                + "&end="
                + to / 1000
                + "&step=15");
    List<Double> out = new ArrayList<>();
    for (JsonNode s : d.path("result")) {
      for (JsonNode v : s.path("values")) {
        out.add(Double.parseDouble(v.get(1).asText()));
      }
    }
    return out;
  }

  /** The one value of an instant query at {@code timeSeconds}. */
  static double instant(String query, double timeSeconds) throws Exception {
    JsonNode d =
        get(
            "/api/v1/query?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&time="
                + String.format(Locale.ROOT, "%.3f", timeSeconds));
    assertThat(d.path("result")).as(query + ": " + d).hasSize(1);
    return Double.parseDouble(d.path("result").get(0).path("value").get(1).asText());
  }

  static JsonNode get(String pathAndQuery) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(base() + pathAndQuery))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new ObjectMapper().readTree(r.body()).path("data");
  }
}
