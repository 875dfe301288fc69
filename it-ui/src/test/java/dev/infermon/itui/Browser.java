package dev.infermon.itui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Chromium from the Debian packages ({@code chromium}, {@code chromium-driver}), driven by
 * Selenium with a fresh profile. {@link #available()} says whether both binaries are installed, so
 * tests can skip when they are not.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of(System.getProperty("ui.chromium", "/usr/bin/chromium"));
  static final Path DRIVER =
      Path.of(System.getProperty("ui.chromedriver", "/usr/bin/chromedriver"));

  final ChromeDriver driver;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final ChromeDriverService service;
  private final Path profile;

  private Browser(ChromeDriver driver, ChromeDriverService service, Path profile) {
    this.driver = driver;
    this.service = service;
    this.profile = profile;
  }

  static boolean available() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
  }

  static Browser start(int width, int height, boolean dark) throws IOException {
    Path profile = Files.createTempDirectory("infermon-chromium-");
    ChromeOptions o = new ChromeOptions();
    o.setBinary(CHROMIUM.toFile());
    o.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-color-profile=srgb",
        "--window-size=" + width + "," + height,
        "--user-data-dir=" + profile);
    if (dark) {
      o.addArguments("--force-dark-mode", "--blink-settings=preferredColorScheme=0");
    }
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    o.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(DRIVER.toFile())
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(30))
            .build();
    ChromeDriver d = new ChromeDriver(service, o);
    d.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    d.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    return new Browser(d, service, profile);
  }

  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Console errors and failed loads since the last call (reading the log empties it). */
  List<String> consoleErrors() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .collect(Collectors.toList());
  }

  void screenshot(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
  }

  /** Quits the browser and its driver; idempotent (a shutdown hook may call it too). */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      driver.quit();
    } finally {
      service.stop();
      Harness.deleteQuietly(profile);
    }
  }
}
