package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.model.LoraAdapters;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * LoRA adapters in the dashboard's model filter, in a real headless Chromium over {@code infermon
 * serve} scraping a simulated vLLM fleet that serves two adapters: the filter offers each adapter
 * the simulator's requests use right under its base model, and choosing one filters by the base
 * model and scopes the adapter panel to that adapter alone.
 */
class UiLoraFilterTest {
  static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  static Path dir;
  static Harness harness;
  static Browser browser;
  static WebDriverWait wait;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "headless Chromium not installed (" + Browser.CHROMIUM + ", " + Browser.DRIVER + ")");
    dir = Files.createTempDirectory("infermon-it-ui-lora-");
    FleetConfig fleet =
        FleetConfig.builder()
            .seed(7)
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(MODEL, "org/model-b"))
            .lora(new LoraAdapters(List.of("sql", "chat"), 2))
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

  private static List<String> optionTexts() {
    return browser.driver.findElements(By.cssSelector("#filter-model option")).stream()
        .map(o -> o.getAttribute("value"))
        .toList();
  }

  /**
   * Polls the adapters API over the dashboard's window until it lists every one of {@code names}.
   */
  private static void awaitAdapters(List<String> names) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
    String body = "";
    while (System.nanoTime() < deadline) {
      long now = System.currentTimeMillis() / 1000;
      URI uri =
          URI.create(
              harness.baseUrl()
                  + "/api/v1/llm/dashboard/adapters?start="
                  + (now - 300)
                  + "&end="
                  + now);
      body =
          http.send(
                  HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      String listed = body;
      if (names.stream().allMatch(n -> listed.contains("\"adapter\":\"" + n + "\""))) {
        return;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("adapters " + names + " not listed within 150 s: " + body);
  }

  @Test
  void theModelFilterOffersTheAdaptersUnderTheirModelAndChoosingOneScopesTheAdapterPanel()
      throws Exception {
    // the adapters appear once the fleet's pages listed both in the window (the simulator's
    // traffic decides when): wait for the server to list them, then for the page to offer them
    awaitAdapters(List.of("sql", "chat"));
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    List<String> values = List.of();
    while (System.nanoTime() < deadline) {
      // every card loads at once (lazy=0): what is under test is the filter, not the lazy loading
      browser.driver.get(harness.baseUrl() + "/dashboard?level=model&range=5m&lazy=0");
      try {
        wait.withTimeout(Duration.ofSeconds(10))
            .until(
                d ->
                    optionTexts().contains(MODEL + "\nsql")
                        && optionTexts().contains(MODEL + "\nchat"));
      } catch (org.openqa.selenium.TimeoutException e) {
        continue;
      }
      values = optionTexts();
      break;
    }
    int base = values.indexOf(MODEL);
    assertThat(base).as("model choices %s", values).isNotNegative();
    // both adapters right under their base model, whatever their order
    assertThat(values.subList(base + 1, base + 3))
        .containsExactlyInAnyOrder(MODEL + "\nsql", MODEL + "\nchat");

    new Select(browser.driver.findElement(By.id("filter-model"))).selectByValue(MODEL + "\nsql");
    wait.withTimeout(Duration.ofSeconds(90))
        .until(d -> String.valueOf(browser.js("return location.search")).contains("adapter=sql"));
    String search = String.valueOf(browser.js("return location.search"));
    assertThat(search).contains("model=meta-llama");
    // the panel as drawn for the new choice: found afresh at each poll (a reload may rebuild the
    // cards), and any final state ends the wait so that a failure says which state and why
    By lora = By.cssSelector("[data-panel='model.lora_adapters']");
    wait.until(
        d -> {
          WebElement p = browser.driver.findElement(lora);
          return List.of("drawn", "empty", "error").contains(p.getAttribute("data-state"))
              && Boolean.TRUE.equals(browser.js("return window.__dashboardDone === true"));
        });
    WebElement panel = browser.driver.findElement(lora);
    assertThat(panel.getAttribute("data-state"))
        .as("adapter panel after choosing sql (%s): %s", search, panel.getText())
        .isEqualTo("drawn");
    List<String> legend =
        panel.findElements(By.cssSelector(".legend button")).stream()
            .map(WebElement::getText)
            .toList();
    assertThat(legend).isNotEmpty().allSatisfy(l -> assertThat(l).contains("sql"));
    assertThat(legend).noneMatch(l -> l.contains("chat"));
    assertThat(
            new Select(browser.driver.findElement(By.id("filter-model")))
                .getFirstSelectedOption()
                .getAttribute("value"))
        .isEqualTo(MODEL + "\nsql");
    assertThat(browser.consoleErrors()).isEmpty();
  }
}
