package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.simulator.FleetConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The diagnosis page in a real headless Chromium over a running infermon that scrapes a simulated
 * fleet: the diagnosis names its states with evidence or says explicitly that it found no problem
 * in what it could read, lists per pod the signals it could not read, the SLO section shows budgets
 * or how to configure them, and linting a rate over a gauge lists a finding with its severity,
 * location and message. Screenshots go beside the other pages' ({@code
 * web/target/screenshots/diagnosis-*.png}).
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
          "asleep",
          "gpu-memory-near-full",
          "pd-bottleneck",
          "restarted",
          "prefill-bound",
          "decode-bound",
          "cause-not-found");

  static Path dir;
  static Harness harness;
  static Browser browser;
  static WebDriverWait wait;

  /** How many pods the diagnosis endpoint looks at, once it looks at any. */
  static int pods;

  /** The diagnosis endpoint's answer for the last 15 minutes. */
  static String diagnosis(String range) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(harness.baseUrl() + "/api/v1/llm/diagnosis?window=" + range))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /**
   * Waits (at most a minute) until the diagnosis sees inference pods: just after start-up the
   * window holds too few samples, and the page then says there is nothing to diagnose.
   */
  static int awaitDiagnosedPods() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      String body = diagnosis("15m");
      // "pods":["ns/pod (model)", ...]: names hold no quotes
      Matcher m = Pattern.compile("\"pods\":\\[([^\\]]*)]").matcher(body);
      if (m.find() && !m.group(1).isEmpty()) {
        return m.group(1).split("\",\"").length;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("the diagnosis saw no pod within a minute");
  }

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "headless Chromium not installed (" + Browser.CHROMIUM + ", " + Browser.DRIVER + ")");
    dir = Files.createTempDirectory("infermon-it-ui-diag-");
    harness = Harness.start(FleetConfig.builder().seed(11).build(), Duration.ZERO, 1, dir);
    UiBrowserTest.awaitData(harness.baseUrl());
    pods = awaitDiagnosedPods();
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
            !d.findElements(
                        By.cssSelector(
                            "#diagnosis-none, #diagnosis-nodata, .diag-finding, #diagnosis-error"))
                    .isEmpty()
                && !d.findElements(By.cssSelector("#slo-none, tr.slo, #slo-result .error"))
                    .isEmpty());
  }

  @Test
  void diagnosisShowsStatesWithEvidenceOrSaysNoProblemFound() throws Exception {
    open("/diagnosis?range=15m");
    assertThat(browser.driver.findElements(By.id("diagnosis-error"))).isEmpty();
    assertThat(browser.driver.findElements(By.id("diagnosis-nodata"))).isEmpty();
    List<WebElement> found = browser.driver.findElements(By.cssSelector(".diag-finding"));
    if (found.isEmpty()) {
      assertThat(browser.driver.findElement(By.id("diagnosis-none")).getText())
          .contains("No problem found in what could be read")
          .contains(pods + " pod(s) checked");
    } else {
      for (WebElement f : found) {
        assertThat(f.getAttribute("data-state")).isIn(STATES);
        assertThat(f.findElements(By.cssSelector("table.evidence tbody tr"))).isNotEmpty();
        assertThat(f.findElement(By.cssSelector("a[href^='/dashboard?level=causal']")).getText())
            .startsWith("Causal chain");
        if (f.getAttribute("data-state").equals("cause-not-found")) {
          assertThat(f.getText()).contains("cause not found");
          assertThat(f.findElements(By.cssSelector(".diag-symptoms .chip"))).hasSize(1);
        }
      }
    }
    // SGLang pods expose no waiting by reason and no process start time: the page lists, per pod,
    // what could not be read, as many pods as the API names (the page may diagnose a later window)
    Matcher unread = Pattern.compile("\"notMeasured\":\\[(.+)]").matcher(diagnosis("15m"));
    assertThat(unread.find()).as("the API reports signals not measured").isTrue();
    List<WebElement> rows = browser.driver.findElements(By.cssSelector("tr.unmeasured-pod"));
    assertThat(rows).isNotEmpty();
    assertThat(browser.driver.findElement(By.id("diagnosis-unmeasured")).getText())
        .contains("Not measured, so never judged")
        .contains("waiting by reason");
    // the harness configures no llm.slos: the page says how to
    assertThat(browser.driver.findElements(By.cssSelector("#slo-result .error"))).isEmpty();
    if (browser.driver.findElements(By.cssSelector("tr.slo")).isEmpty()) {
      assertThat(browser.driver.findElement(By.id("slo-none")).getText()).contains("llm.slos");
    }
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("#diag-window [aria-pressed='true']"))
                .getText())
        .isEqualTo("15m");
    browser.screenshot(UiBrowserTest.SHOTS.resolve("diagnosis-page.png"));
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  void lintingARateOverAGaugeListsAFinding() throws Exception {
    open("/diagnosis?range=15m");
    WebElement input = browser.driver.findElement(By.id("lint-input"));
    input.sendKeys("rate(vllm:num_requests_waiting[5m])");
    browser.driver.findElement(By.id("lint-run")).click();
    wait.until(
        d ->
            !d.findElements(By.cssSelector("tr.lint-finding, #lint-clean, #lint-error")).isEmpty());
    assertThat(browser.driver.findElements(By.id("lint-error"))).isEmpty();
    List<WebElement> rows = browser.driver.findElements(By.cssSelector("tr.lint-finding"));
    assertThat(rows).extracting(r -> r.getAttribute("data-check")).contains("rate-on-gauge");
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

  /** Calls {@code module.fn(...args)} in the page and returns the result as JSON text. */
  static String call(String module, String fn, String argsJson) {
    return String.valueOf(
        browser.driver.executeAsyncScript(
            "const done = arguments[arguments.length - 1];"
                + "import('/ui/' + arguments[0]).then(m => done(JSON.stringify(m[arguments[1]](...JSON.parse(arguments[2])))),"
                + " e => done('ERROR ' + e));",
            module,
            fn,
            argsJson));
  }

  @ParameterizedTest(name = "{0}.{1}{2} = {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          lint.js | kindOf | ["rate(vllm:num_requests_waiting[5m])"]           | "expr"
          lint.js | kindOf | ["{__name__=~\\"vllm:.*\\"}"]                     | "expr"
          lint.js | kindOf | ["groups:\\n- name: a\\n  rules: []"]             | "rules"
          lint.js | kindOf | ["{\\"title\\": \\"x\\", \\"panels\\": []}"]          | "dashboard"
          lint.js | where  | [{"file": "<expr>", "line": 1, "column": 6}]     | "<expr>:1:6"
          lint.js | where  | [{"file": "a.yml", "line": 7, "column": 0, "group": "g", "rule": "R"}] | "a.yml:7 · group g · rule R"
          lint.js | where  | [{"file": "d.json", "line": 0, "dashboard": "D", "panel": "TTFT", "refId": "A"}] | "d.json · dashboard D · panel TTFT · query A"
          """)
  void lintHelpers(String module, String fn, String args, String expected) {
    assertThat(call(module, fn, args)).isEqualTo(expected);
  }

  /** The docs' example answer (docs/http-api.md), rendered as the page renders a live one. */
  @Test
  void findingsAreGroupedByModelAndPodWithEvidenceAndACausalLink() {
    String data =
        "{\"start\": 1780000000.0, \"end\": 1780001800.0, \"pods\": [\"inference/vllm-llama-0 (llama)\"],"
            + " \"findings\": [{\"state\": \"kv-pressure\", \"description\": \"KV cache above 90% with preemptions\","
            + " \"model\": \"llama\", \"namespace\": \"inference\", \"pod\": \"vllm-llama-0\","
            + " \"summary\": \"KV cache at or above 90% in 97% of the window\","
            + " \"evidence\": [{\"signal\": \"KV cache usage\", \"series\": \"{pod=\\\"vllm-llama-0\\\"}\","
            + " \"value\": 0.99, \"time\": 1780000630.0, \"note\": \"max over the window\", \"query\": \"max(x)\"},"
            + " {\"signal\": \"preemptions/s\", \"series\": \"\", \"value\": \"NaN\", \"time\": 1780000630.0}]},"
            + " {\"state\": \"pd-bottleneck\", \"model\": \"llama\", \"namespace\": \"\", \"pod\": \"\","
            + " \"summary\": \"decode holds the queue\", \"evidence\": []},"
            + " {\"state\": \"cause-not-found\", \"model\": \"llama\", \"namespace\": \"inference\","
            + " \"pod\": \"vllm-llama-1\", \"summary\": \"TTFT p95 is up to 4.1 s on pod inference/vllm-llama-1;"
            + " cause not found: could not read queue time, prefix cache\", \"symptoms\": [\"ttft-high\"],"
            + " \"notRead\": [\"queue time\", \"prefix cache\"], \"evidence\": [{\"signal\": \"TTFT p95 (s)\","
            + " \"series\": \"\", \"value\": 4.1, \"time\": 1780000630.0, \"query\": \"q\"}]}],"
            + " \"notMeasured\": [{\"model\": \"llama\", \"namespace\": \"inference\", \"pod\": \"vllm-llama-1\","
            + " \"signals\": [\"queue time\", \"GPU memory\"]}]}";
    Object r =
        browser.driver.executeAsyncScript(
            "const done = arguments[arguments.length - 1];"
                + "import('/ui/diagnosis.js').then(m => {"
                + " const div = document.createElement('div');"
                + " div.innerHTML = m.findingsHtml(JSON.parse(arguments[0]), new URLSearchParams('range=6h'));"
                + " done(JSON.stringify({"
                + "  groups: [...div.querySelectorAll('.diag-group')].map(g => g.dataset.model + '|' + g.dataset.pod),"
                + "  states: [...div.querySelectorAll('.diag-finding')].map(f => f.dataset.state),"
                + "  rows: [...div.querySelectorAll('.diag-finding')].map(f => f.querySelectorAll('table.evidence tbody tr').length),"
                + "  values: [...div.querySelectorAll('table.evidence td.num:nth-child(3)')].map(td => td.textContent),"
                + "  links: [...div.querySelectorAll('.diag-finding > a')].map(a => a.getAttribute('href')),"
                + "  symptoms: [...div.querySelectorAll('.diag-symptoms .chip')].map(c => c.textContent),"
                + "  notRead: [...div.querySelectorAll('.diag-notread .chip')].map(c => c.textContent),"
                + "  unmeasured: [...div.querySelectorAll('tr.unmeasured-pod')].map(r => r.dataset.pod + ': '"
                + "   + [...r.querySelectorAll('.chip')].map(c => c.textContent).join(', '))}));"
                + "}, e => done('ERROR ' + e));",
            data);
    assertThat(String.valueOf(r))
        .isEqualTo(
            "{\"groups\":[\"llama|\",\"llama|vllm-llama-0\",\"llama|vllm-llama-1\"],"
                + "\"states\":[\"pd-bottleneck\",\"kv-pressure\",\"cause-not-found\"],"
                + "\"rows\":[0,2,1],"
                + "\"values\":[\"0.99\",\"NaN\",\"4.1\"],"
                + "\"links\":[\"/dashboard?level=causal&model=llama&range=6h\","
                + "\"/dashboard?level=causal&model=llama&namespace=inference&range=6h\","
                + "\"/dashboard?level=causal&model=llama&namespace=inference&range=6h\"],"
                + "\"symptoms\":[\"TTFT high\"],"
                + "\"notRead\":[\"queue time\",\"prefix cache\"],"
                + "\"unmeasured\":[\"vllm-llama-1: queue time, GPU memory\"]}");
  }
}
