package dev.infermon.itui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Where the page's main thread spends a full dashboard load: Chromium's CPU profile (through the
 * DevTools protocol) of three loads of {@code /dashboard?level=all&range=6h&lazy=0} against a
 * running server, self time by function. {@code (idle)} is the main thread waiting (for the
 * network, mostly); {@code (program)} is the browser's native work (style, layout, paint). Run
 * against the benchmark's server kept up with {@code -Dui.serve.minutes}: {@code java -cp
 * it-ui/target/test-classes:$(cat it-ui/target/ui-bench.cp) dev.infermon.itui.UiPageProfile
 * http://127.0.0.1:PORT}.
 */
public final class UiPageProfile {
  private UiPageProfile() {}

  public static void main(String[] args) throws Exception {
    try (Browser b = Browser.start(1440, 1000, false)) {
      String url = args[0] + "/dashboard?level=all&range=6h&lazy=0";
      WebDriverWait wait = new WebDriverWait(b.driver, Duration.ofSeconds(300));
      for (int run = 0; run < 3; run++) {
        b.driver.get("about:blank");
        b.driver.executeCdpCommand("Profiler.enable", Map.of());
        b.driver.executeCdpCommand("Profiler.setSamplingInterval", Map.of("interval", 500));
        b.driver.executeCdpCommand("Profiler.start", Map.of());
        b.driver.get(url);
        wait.until(d -> Boolean.TRUE.equals(b.js("return window.__dashboardDone === true")));
        Map<String, Object> r = b.driver.executeCdpCommand("Profiler.stop", Map.of());
        double ms = ((Number) b.js("return window.__lastPanelDrawnAt")).doubleValue();
        JsonNode p = new ObjectMapper().valueToTree(r.get("profile"));
        Map<Long, String> names = new HashMap<>();
        for (JsonNode n : p.path("nodes")) {
          JsonNode cf = n.path("callFrame");
          String u = cf.path("url").asText();
          names.put(
              n.path("id").asLong(),
              cf.path("functionName").asText()
                  + " "
                  + u.substring(u.lastIndexOf('/') + 1)
                  + ":"
                  + cf.path("lineNumber").asInt());
        }
        Map<String, Double> self = new HashMap<>();
        JsonNode samples = p.path("samples");
        JsonNode deltas = p.path("timeDeltas");
        for (int i = 0; i < samples.size(); i++) {
          double d = i + 1 < deltas.size() ? deltas.get(i + 1).asDouble() / 1000 : 0;
          self.merge(names.get(samples.get(i).asLong()), d, Double::sum);
        }
        System.out.printf("run %d: %.0f ms%n", run, ms);
        self.entrySet().stream()
            .sorted((x, y) -> Double.compare(y.getValue(), x.getValue()))
            .limit(18)
            .forEach(e -> System.out.printf("  %6.0f ms %s%n", e.getValue(), e.getKey()));
      }
    }
  }
}
