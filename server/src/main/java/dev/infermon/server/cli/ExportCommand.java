package dev.infermon.server.cli;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import dev.infermon.llm.export.AlertRule;
import dev.infermon.llm.export.GrafanaDashboard;
import dev.infermon.llm.export.RuleFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code infermon export grafana|rules|prometheusrule [--engines vllm,sglang,dcgm] [-o FILE]}:
 * writes the LLM dashboard as Grafana JSON, or the default alert pack (generated from the engine
 * catalog for the given engines) as a Prometheus rule file or a PrometheusRule resource. Exit
 * status 0, or 2 on a usage error (unknown engine, unwritable file).
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
      "Export the LLM dashboard (grafana) or the default alert pack (rules, prometheusrule) for"
          + " the given engines, to standard output or FILE."
    })
public final class ExportCommand implements Callable<Integer> {
  /** What to export. */
  enum What {
    grafana,
    rules,
    prometheusrule
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", description = "grafana, rules or prometheusrule")
  What what;

  @Option(
      names = "--engines",
      split = ",",
      defaultValue = "vllm,sglang,dcgm",
      description = "Engines to cover (default: ${DEFAULT-VALUE}).")
  List<String> engines;

  @Option(
      names = {"-o", "--output"},
      description = "Write to FILE instead of standard output.")
  Path output;

  @Option(
      names = "--name",
      defaultValue = "infermon-llm",
      description = "metadata.name of the PrometheusRule (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--namespace", description = "metadata.namespace of the PrometheusRule.")
  String namespace;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Set<String> chosen = new LinkedHashSet<>(engines);
    String text;
    try {
      Catalog catalog = Catalog.builtIn();
      if (what == What.grafana) {
        text = GrafanaDashboard.json(catalog, chosen);
      } else {
        List<AlertRule> rules = AlertPack.rules(catalog, chosen, LlmConfig.Alerts.DEFAULT);
        text =
            what == What.rules
                ? RuleFiles.prometheusRuleFile(AlertPack.GROUP, rules)
                : RuleFiles.prometheusRule(name, namespace, AlertPack.GROUP, rules);
      }
    } catch (IllegalArgumentException e) {
      err.println("infermon export: " + e.getMessage());
      return 2;
    }
    if (output == null) {
      spec.commandLine().getOut().print(text);
      spec.commandLine().getOut().flush();
      return 0;
    }
    try {
      Files.writeString(output, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      err.println("infermon export: cannot write " + output + ": " + e.getMessage());
      return 2;
    }
    return 0;
  }
}
