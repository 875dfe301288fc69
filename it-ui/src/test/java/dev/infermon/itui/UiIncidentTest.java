package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.server.demo.Demo;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import java.io.PrintWriter;
import java.io.StringWriter;
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
 * The incident page in a real headless Chromium, opened from the alerts page: {@code infermon
 * demo}'s machinery runs a small fleet in the KV-pressure scenario with 30 minutes of backfilled
 * history and the pack's {@code for} at 0, so the TTFT alert fires at the rules' first evaluation.
 * Its row on the alerts page links to its incident; there the symptom chart has points, the
 * timeline names KV pressure, and each causal-chain chart (KV usage, preemptions, queue, TTFT p95)
 * has data for the pods involved. A screenshot goes to {@code web/target/screenshots/incident.png}.
 */
class UiIncidentTest {
  static Path dir;
  static Demo demo;
  static Browser browser;
  static WebDriverWait wait;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "headless Chromium not installed (" + Browser.CHROMIUM + ", " + Browser.DRIVER + ")");
    dir = Files.createTempDirectory("infermon-it-ui-incident-");
    FleetConfig fleet =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .scenario(Scenario.KV_PRESSURE)
            .build();
    demo =
        Demo.start(
            new Demo.Options(fleet, List.of(), Duration.ofMinutes(30), Duration.ofSeconds(5)),
            Harness.demoSettings(
                "llm:\n  alerts: {ttft_for: 0s, waiting_for: 0s, failure_for: 0s}\n"),
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

  @Test
  void theIncidentOpenedFromTheAlertsPageHasItsSymptomTimelineAndCausalCharts() throws Exception {
    String base = demo.uiUrl().replaceAll("/$", "");
    browser.driver.get(base + "/alerts");
    // the rules' first evaluation comes within a group interval: refresh until the alert fires
    WebElement link =
        wait.until(
            d -> {
              List<WebElement> rows =
                  d.findElements(By.cssSelector("#active-alerts tr[data-state=firing]"));
              for (WebElement r : rows) {
                if (r.getText().contains("LLMTimeToFirstTokenHigh")) {
                  return r.findElement(By.cssSelector("a.incident-link"));
                }
              }
              d.findElement(By.id("alerts-refresh")).click();
              return null;
            });
    link.click();
    wait.until(
        d ->
            d.findElements(By.cssSelector("#incident-causal section.incident-causal")).size() == 4
                || !d.findElements(By.id("incident-error")).isEmpty());
    assertThat(browser.driver.findElements(By.id("incident-error"))).isEmpty();
    assertThat(browser.driver.getCurrentUrl()).startsWith(base + "/incident?alert=");
    Files.createDirectories(Path.of("../web/target/screenshots"));
    browser.screenshot(Path.of("../web/target/screenshots/incident.png"));

    WebElement symptom = browser.driver.findElement(By.id("incident-symptom"));
    assertThat(Integer.parseInt(symptom.getAttribute("data-points"))).isPositive();
    assertThat(symptom.findElements(By.cssSelector("canvas"))).isNotEmpty();

    List<WebElement> causes = browser.driver.findElements(By.cssSelector(".incident-cause"));
    assertThat(causes).isNotEmpty();
    assertThat(causes.stream().map(c -> c.getAttribute("data-state")))
        .as("the timeline's states")
        .contains("kv-pressure");

    List<WebElement> pods = browser.driver.findElements(By.cssSelector(".incident-pod"));
    assertThat(pods).isNotEmpty();
    for (WebElement card :
        browser.driver.findElements(By.cssSelector("#incident-causal section.incident-causal"))) {
      String id = card.getAttribute("data-panel");
      assertThat(id).startsWith("causal_pod.");
      assertThat(Integer.parseInt(card.getAttribute("data-series")))
          .as(id + ": series of the pods involved")
          .isPositive()
          .isLessThanOrEqualTo(2 * pods.size());
      assertThat(Integer.parseInt(card.getAttribute("data-points"))).as(id).isPositive();
      assertThat(card.findElements(By.cssSelector("canvas"))).as(id).isNotEmpty();
    }
    assertThat(browser.consoleErrors()).isEmpty();
  }
}
