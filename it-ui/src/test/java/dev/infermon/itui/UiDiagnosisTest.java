package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.simulator.FleetConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The diagnosis page in a real headless Chromium over a running infermon that scrapes a simulated
 * fleet: the diagnosis names its states with evidence or says explicitly that it found no
 * problem, the SLO section shows budgets or how to configure them, and linting a rate over a gauge
 * lists a finding with its severity, location and message. Screenshots go beside the other pages'
 * ({@code web/target/screenshots/diagnosis-*.png}).
 */
class UiDiagnosisTest {
  static final List<String> STATES =
      List.of(
          "saturated",
          "kv-pressure",
          "deferred-by-config",
          "idle-gpu-long-queue",
          "slow-pod",
          "errors-rising",
          "gpu-memory-near-full",
          "pd-bottleneck",
          "restarted");

  static Path dir;
  static Harness harness;
  static Browser browser;
  static WebDriverWait wait;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "headless Chromium not installed (" + Browser.CHROMIUM + ", " + Browser.DRIVER + ")");
    dir = Files.createTempDirectory("infermon-it-ui-diag-");
    harness = Harness.start(FleetConfig.builder().seed(11).build(), Duration.ZERO, 1, dir);
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
    wait.until(
        d ->
            !d.findElements(By.cssSelector("#diagnosis-none, .diag-finding, #diagnosis-error"))
                    .isEmpty()
                && !d.findElements(By.cssSelector("#slo-none, tr.slo, #slo-result .error"))
                    .isEmpty());
  }

  @Test
  void diagnosisShowsStatesWithEvidenceOrSaysNoProblemFound() throws Exception {
    open("/diagnosis?range=15m");
    assertThat(browser.driver.findElements(By.id("diagnosis-error"))).isEmpty();
    List<WebElement> found = browser.driver.findElements(By.cssSelector(".diag-finding"));
    if (found.isEmpty()) {
      assertThat(browser.driver.findElement(By.id("diagnosis-none")).getText())
          .contains("No problem found")
          .contains("pod(s) checked");
    } else {
      for (WebElement f : found) {
        assertThat(f.getAttribute("data-state")).isIn(STATES);
        assertThat(f.findElements(By.cssSelector("table.evidence tbody tr"))).isNotEmpty();
        assertThat(f.findElement(By.cssSelector("a[href^='/dashboard?level=causal']")).getText())
            .startsWith("Causal chain");
      }
    }
    // the harness configures no llm.slos: the page says how to
    assertThat(browser.driver.findElements(By.cssSelector("#slo-result .error"))).isEmpty();
    if (browser.driver.findElements(By.cssSelector("tr.slo")).isEmpty()) {
      assertThat(browser.driver.findElement(By.id("slo-none")).getText()).contains("llm.slos");
    }
    assertThat(browser.driver.findElement(By.cssSelector("#diag-window [aria-pressed='true']")).getText())
        .isEqualTo("15m");
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  void lintingARateOverAGaugeListsAFinding() throws Exception {
    open("/diagnosis?range=15m");
    WebElement input = browser.driver.findElement(By.id("lint-input"));
    input.sendKeys("rate(vllm:num_requests_waiting[5m])");
    browser.driver.findElement(By.id("lint-run")).click();
    wait.until(
        d -> !d.findElements(By.cssSelector("tr.lint-finding, #lint-clean, #lint-error")).isEmpty());
    assertThat(browser.driver.findElements(By.id("lint-error"))).isEmpty();
    List<WebElement> rows = browser.driver.findElements(By.cssSelector("tr.lint-finding"));
    assertThat(rows).isNotEmpty();
    WebElement first = rows.get(0);
    List<WebElement> cells = first.findElements(By.tagName("td"));
    assertThat(cells.get(0).getText()).isIn("error", "warning", "info");
    assertThat(cells.get(2).getText()).startsWith("<expr>:1:");
    assertThat(browser.driver.findElement(By.cssSelector("#lint-result")).getText())
        .contains("vllm:num_requests_waiting")
        .containsIgnoringCase("gauge");
    browser.screenshot(UiBrowserTest.SHOTS.resolve("diagnosis-lint.png"));

    // keyboard only: Ctrl+Enter in the box lints again, an empty box asks for input
    input.clear();
    input.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
    wait.until(
        d -> d.findElement(By.id("lint-result")).getText().contains("Paste something to lint"));

    // the dark theme through its shortcut, with no console errors
    browser.driver.findElement(By.tagName("body")).sendKeys("t");
    assertThat(browser.js("return document.documentElement.dataset.theme")).isEqualTo("dark");
    browser.screenshot(UiBrowserTest.SHOTS.resolve("diagnosis-dark.png"));
    browser.driver.findElement(By.id("theme-toggle")).click();
    assertThat(browser.consoleErrors()).isEmpty();
  }
}
