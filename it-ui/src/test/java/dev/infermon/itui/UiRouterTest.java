package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.RouterKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The router level in a real headless Chromium over {@code infermon serve} scraping a simulated
 * fleet with llm-d's EPP in front of its pods: the Router tab draws the requests routed to each
 * pod, one line per pod behind the router, and a router panel the EPP does not fill (in flight per
 * pod) names the router and why instead of failing.
 */
class UiRouterTest {
  static Path dir;
  static Harness harness;
  static Browser browser;
  static WebDriverWait wait;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "headless Chromium not installed (" + Browser.CHROMIUM + ", " + Browser.DRIVER + ")");
    dir = Files.createTempDirectory("infermon-it-ui-router-");
    FleetConfig fleet =
        FleetConfig.builder()
            .seed(11)
            .vllmPods(2)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .router(RouterKind.LLM_D)
            .build();
    harness = Harness.start(fleet, Duration.ZERO, 1, dir);
    UiBrowserTest.awaitData(harness.baseUrl());
    browser = Browser.start(1440, 1000, false);
    wait = new WebDriverWait(browser.driver, Duration.ofSeconds(90));
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

  private WebElement panel(String id) {
    return browser.driver.findElement(By.cssSelector("[data-panel='" + id + "']"));
  }

  private void awaitDashboard() {
    wait.until(d -> Boolean.TRUE.equals(browser.js("return window.__dashboardDone === true")));
  }

  @Test
  void theRouterTabDrawsRequestsRoutedPerPodAndNamesWhatTheRouterLacks() {
    // the EPP's counters need two scrapes in a rate window: reload until the panel draws
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    String state = "";
    while (System.nanoTime() < deadline) {
      browser.driver.get(harness.baseUrl() + "/dashboard?level=router&range=5m");
      awaitDashboard();
      state = panel("router.routed").getAttribute("data-state");
      if ("drawn".equals(state)) {
        break;
      }
    }
    assertThat(state).as("router.routed").isEqualTo("drawn");
    assertThat(browser.driver.findElement(By.id("tab-router")).getAttribute("aria-selected"))
        .isEqualTo("true");
    List<String> headings =
        browser.driver.findElements(By.cssSelector("#dash-body h2")).stream()
            .map(WebElement::getText)
            .toList();
    assertThat(headings).containsExactly("Router in front of the engines");
    assertThat(panel("router.queue").getAttribute("data-state")).isEqualTo("drawn");
    WebElement inFlight = panel("router.in_flight");
    assertThat(inFlight.getAttribute("data-state")).isEqualTo("empty");
    assertThat(inFlight.findElement(By.cssSelector(".empty .reason")).getText())
        .contains("llm-d router endpoint picker does not expose requests in flight per pod");
    assertThat(browser.consoleErrors()).isEmpty();
  }
}
