package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.llm.export.AlertRule;
import dev.infermon.llm.export.GrafanaDashboard;
import dev.infermon.llm.export.RuleFiles;
import dev.infermon.promql.parser.PromqlParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grafana JSON structure, and the generated alert pack checked by the real promtool. */
class ExportTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final Set<String> ALL = new LinkedHashSet<>(List.of("vllm", "sglang", "dcgm"));

  @Test
  void grafanaDashboardIsLoadable() throws Exception {
    JsonNode d = new ObjectMapper().readTree(GrafanaDashboard.json(CATALOG, ALL));
    assertThat(d.path("uid").asText()).isEqualTo(GrafanaDashboard.UID);
    assertThat(d.path("schemaVersion").asInt()).isPositive();
    Set<String> vars = new HashSet<>();
    for (JsonNode v : d.path("templating").path("list")) {
      vars.add(v.path("name").asText());
    }
    assertThat(vars)
        .contains(
            "datasource",
            "namespace",
            "workload",
            "model",
            "backend",
            "role",
            "quantile",
            "gpu_hour_price");
    Set<Integer> ids = new HashSet<>();
    int targets = 0;
    for (JsonNode p : d.path("panels")) {
      assertThat(ids.add(p.path("id").asInt())).as("unique id " + p.path("id")).isTrue();
      JsonNode g = p.path("gridPos");
      assertThat(g.path("w").asInt()).isBetween(1, 24);
      assertThat(g.path("x").asInt() + g.path("w").asInt()).isLessThanOrEqualTo(24);
      if (p.path("type").asText().equals("row")) {
        continue;
      }
      assertThat(p.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
      for (JsonNode t : p.path("targets")) {
        targets++;
        String expr = t.path("expr").asText();
        for (String v : vars) {
          // the quantile and the GPU-hour price are numbers, the filters regexes
          String value = v.equals("quantile") ? "0.95" : v.equals("gpu_hour_price") ? "2" : ".*";
          expr = expr.replace("$" + v, value);
        }
        expr =
            expr.replace("$__rate_interval", "5m")
                .replace("$__interval_ms", "60000")
                .replace("$__interval", "1m");
        assertThat(expr).doesNotContainPattern("\\$[A-Za-z_{]");
        String e = expr;
        assertThatCode(() -> PromqlParser.parse(e))
            .as(t.path("expr").asText())
            .doesNotThrowAnyException();
      }
    }
    assertThat(targets).isGreaterThan(50);
  }

  @Test
  void alertPackCoversEveryEnginePresent() {
    List<AlertRule> vllmOnly = AlertPack.rules(CATALOG, Set.of("vllm"), LlmConfig.Alerts.DEFAULT);
    assertThat(vllmOnly)
        .extracting(AlertRule::alert)
        .containsExactly(
            AlertPack.TTFT,
            AlertPack.QUEUED,
            AlertPack.SLOTS,
            AlertPack.FAILURES,
            "LLMRouterQueueGrowing");
    // NVIDIA NIM's subset of vLLM's names has no preemption counter: its queue waits for a slot
    assertThat(vllmOnly.get(2).expr())
        .contains("(num_requests_waiting)")
        .doesNotContain("vllm:")
        .doesNotContain("ray_vllm");
    assertThat(vllmOnly.get(0).expr())
        .contains("vllm:time_to_first_token_seconds_bucket")
        .doesNotContain("sglang");
    List<AlertRule> both =
        AlertPack.rules(CATALOG, Set.of("vllm", "sglang"), LlmConfig.Alerts.DEFAULT);
    assertThat(both.get(0).expr())
        .contains("sglang:time_to_first_token_seconds_bucket")
        .endsWith("> 1");
    assertThat(both.get(0).forDuration()).isEqualTo(LlmConfig.Alerts.DEFAULT.ttftFor());
  }

  @Test
  void alertThresholdsAndDurationsComeFromLlmAlerts() {
    LlmConfig.Alerts tuned =
        new LlmConfig.Alerts(
            true,
            0.9,
            java.time.Duration.ofMillis(1500),
            java.time.Duration.ofMinutes(5),
            20,
            java.time.Duration.ofMinutes(7),
            0.07,
            java.time.Duration.ofMinutes(30),
            4);
    List<AlertRule> rules = AlertPack.rules(CATALOG, Set.of("vllm"), tuned);
    // the engines' quantile, and the Dynamo frontend's the user sees (routers.yaml user_ttft)
    assertThat(rules.get(0).expr())
        .contains("histogram_quantile(0.9, sum by (namespace, model_name, le) (sum by")
        .contains("histogram_quantile(0.9, sum by (namespace, model_name, le) (label_replace(")
        .doesNotContain("0.95")
        .doesNotContain("> 1 ")
        .endsWith("> 1.5");
    assertThat(rules.get(0).forDuration()).hasMinutes(5);
    assertThat(rules.get(0).annotations().get("summary")).contains("p90").contains("1.5s");
    assertThat(rules.get(1).expr()).contains("> 20)");
    assertThat(rules.get(1).forDuration()).hasMinutes(7);
    assertThat(rules.get(2).expr()).endsWith(" > 20");
    assertThat(rules.get(2).forDuration()).hasMinutes(7);
    assertThat(rules.get(3).expr()).contains("> 0.07) and (").endsWith(") * 300 >= 4");
    assertThat(rules.get(3).forDuration()).hasMinutes(30);
    assertThat(rules.get(3).annotations().get("summary")).contains("more than 7% of requests");
  }

  @Test
  void ruleFilesPassPromtool(@TempDir Path dir) throws Exception {
    Path promtool = Path.of("/usr/bin/promtool");
    Assumptions.assumeTrue(Files.isExecutable(promtool), "promtool is not installed: skipped");
    List<AlertRule> rules = AlertPack.rules(CATALOG, ALL, LlmConfig.Alerts.DEFAULT);
    Path file = dir.resolve("llm.rules.yml");
    Files.writeString(file, RuleFiles.prometheusRuleFile(AlertPack.GROUP, rules));
    Process p =
        new ProcessBuilder(promtool.toString(), "check", "rules", file.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("SUCCESS: 5 rules found");
  }

  @Test
  void prometheusRuleResourceCarriesTheSameGroup() throws Exception {
    List<AlertRule> rules = AlertPack.rules(CATALOG, ALL, LlmConfig.Alerts.DEFAULT);
    JsonNode r =
        new YAMLMapper()
            .readTree(
                RuleFiles.prometheusRule("infermon-llm", "monitoring", AlertPack.GROUP, rules));
    assertThat(r.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(r.path("kind").asText()).isEqualTo("PrometheusRule");
    assertThat(r.path("metadata").path("name").asText()).isEqualTo("infermon-llm");
    JsonNode group = r.path("spec").path("groups").get(0);
    assertThat(group.path("name").asText()).isEqualTo(AlertPack.GROUP);
    assertThat(group.path("rules")).hasSize(5);
    assertThat(group.path("rules").get(0).path("for").asText()).isEqualTo("10m");
    for (JsonNode rule : group.path("rules")) {
      assertThatCode(() -> PromqlParser.parse(rule.path("expr").asText()))
          .doesNotThrowAnyException();
    }
  }
}
