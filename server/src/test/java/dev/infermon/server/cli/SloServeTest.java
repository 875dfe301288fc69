package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.await;
import static dev.infermon.server.cli.ServeTestSupport.body;
import static dev.infermon.server.cli.ServeTestSupport.post;
import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.runtime.Infermon;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code llm.slos} wired into {@code infermon serve}: the generated SLO rules load beside the
 * default pack as {@code <infermon>/slo-rules.yml}, {@code /api/v1/llm/slo} lists the SLO from the
 * recorded {@code slo:objective}, and a reload without SLOs drops the file.
 */
class SloServeTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private static final String SLO_FILE = "<infermon>/slo-rules.yml";

  @TempDir Path dir;

  @Test
  void sloRulesAreLoadedOnStartAndDroppedOnReload() throws Exception {
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(
        cfg,
        """
        global:
          evaluation_interval: 1s
        llm:
          slos:
            - name: llama-ttft
              model: llama
              sli: ttft
              engine: vllm
              threshold: 2500ms
              objective: 0.95
        """);
    Infermon m =
        serve(
                "--config.file=" + cfg,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.enable-lifecycle")
            .infermon();
    assertThat(m).as("serve started").isNotNull();
    try {
      assertThat(body(m, "/api/v1/rules"))
          .contains("\"name\":\"slo-llama-ttft\"")
          .contains("\"file\":\"" + SLO_FILE + "\"")
          .contains("\"name\":\"slo:error_ratio:rate5m\"")
          .contains("\"name\":\"slo:error_ratio:rate3d\"")
          .contains("\"name\":\"slo:objective\"")
          .contains("\"name\":\"SloErrorBudgetBurn\"")
          .contains("\"name\":\"LLMTimeToFirstTokenHigh\""); // beside the default pack

      await(
          "the SLO in /api/v1/llm/slo",
          PATIENCE,
          () -> body(m, "/api/v1/llm/slo").contains("\"slo\":\"llama-ttft\""));
      assertThat(body(m, "/api/v1/llm/slo"))
          .contains("\"model\":\"llama\"")
          .contains("\"sli\":\"ttft\"")
          .contains("\"objective\":0.95")
          .contains("\"thresholdSeconds\":2.5");

      Files.writeString(cfg, "global:\n  evaluation_interval: 1s\n");
      HttpResponse<String> reload = post(m, "/-/reload", new byte[0], "text/plain");
      assertThat(reload.statusCode()).isEqualTo(200);
      assertThat(body(m, "/api/v1/rules"))
          .doesNotContain(SLO_FILE)
          .doesNotContain("slo:objective")
          .contains("\"name\":\"LLMTimeToFirstTokenHigh\"");
    } finally {
      m.close();
    }
  }
}
