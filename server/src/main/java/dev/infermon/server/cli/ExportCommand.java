package dev.infermon.server.cli;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.export.ExportService;
import dev.infermon.server.runtime.LlmLayer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code infermon export grafana|rules|prometheusrule [--engines vllm,sglang,dcgm] [--spellings
 * sglang:,sglang_,...] [-o FILE]}: writes the LLM dashboard as Grafana JSON, or the default alert
 * pack (generated from the engine catalog for the given engines) as a Prometheus rule file or a
 * PrometheusRule resource, through the LLM layer's {@link ExportService}. Exit status 0, or 2 on a
 * usage error (unknown engine, unwritable file).
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
      description = "Engines to cover (default: every engine of the catalog).")
  List<String> engines = new ArrayList<>();

  @Option(
      names = "--spellings",
      split = ",",
      description =
          "Spellings to read, by prefix as the targets expose it (vllm:, ray_vllm:, ray_vllm_,"
              + " none for NVIDIA NIM's unprefixed names, sglang:, sglang_ behind the SGLang"
              + " gateway; default: every spelling of the engines).")
  List<String> spellings = new ArrayList<>();

  @Option(
      names = {"-o", "--output"},
      description = "Write to FILE instead of standard output.")
  Path output;

  @Option(
      names = "--name",
      defaultValue = ExportService.DEFAULT_NAME,
      description = "metadata.name of the PrometheusRule (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--namespace", description = "metadata.namespace of the PrometheusRule.")
  String namespace;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    ExportService exports = new LlmLayer().exports();
    String text;
    try {
      switch (what) {
        case grafana:
          text = exports.grafana(engines, spellings);
          break;
        case rules:
          text = exports.rules(engines, spellings, LlmConfig.Alerts.DEFAULT);
          break;
        default:
          text =
              exports.prometheusRule(name, namespace, engines, spellings, LlmConfig.Alerts.DEFAULT);
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
