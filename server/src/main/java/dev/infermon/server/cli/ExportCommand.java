package dev.infermon.server.cli;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.server.runtime.LlmLayer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
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
 * sglang:,sglang_,...] [--endpoint URL ...] [--config FILE] [-o FILE]}: writes the LLM dashboard as
 * Grafana JSON, or the default alert pack (generated from the engine catalog for the given engines)
 * as a Prometheus rule file or a PrometheusRule resource, through the LLM layer's {@link
 * ExportService}. With {@code --endpoint}, each {@code /metrics} page is scraped once and the
 * export is generated for those targets: their engines and spellings, and only the families their
 * releases and features expose. With {@code --config}, its {@code llm} section's alert thresholds
 * and GPU-hour price are used. Exit status 0, or 2 on a usage error (unknown engine, unwritable
 * file, an endpoint that cannot be scraped: nothing is written then, since an export without a
 * target's engine would silently leave it out).
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
      names = "--endpoint",
      paramLabel = "URL",
      description =
          "A /metrics URL to generate the export for, scraped once (repeatable): its engine,"
              + " spelling, release and features decide what the export reads.")
  List<URI> endpoints = new ArrayList<>();

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

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "An infermon configuration whose llm section to use: llm.alerts for the alert pack,"
              + " llm.cost for the dashboard's GPU-hour price variable.")
  Path config;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!endpoints.isEmpty() && !(engines.isEmpty() && spellings.isEmpty())) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "give --endpoint or --engines/--spellings, not both: the endpoints tell engines and"
              + " spellings");
    }
    ExportService exports = new LlmLayer().exports();
    LlmConfig llm = LlmConfig.DEFAULT;
    if (config != null) {
      try {
        llm = ConfigLoader.create().load(config).llm();
      } catch (ConfigException e) {
        err.println(
            "infermon export: cannot read the configuration " + config + ": " + e.getMessage());
        return 2;
      }
    }
    String text;
    try {
      if (!endpoints.isEmpty()) {
        text = forTargets(exports, exports.targets(endpoints), llm);
      } else {
        text = forEngines(exports, llm);
      }
    } catch (IllegalArgumentException e) {
      // an export without one of the endpoints' engines would leave it out: nothing is written
      err.println(
          "infermon export: " + e.getMessage() + (endpoints.isEmpty() ? "" : "; nothing written"));
      return 2;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("infermon export: interrupted while scraping the endpoints; nothing written");
      return 2;
    }
    return write(text, err);
  }

  private String forEngines(ExportService exports, LlmConfig llm) {
    switch (what) {
      case grafana:
        return exports.grafana(engines, spellings, llm.cost());
      case rules:
        return exports.rules(engines, spellings, llm.alerts());
      default:
        return exports.prometheusRule(name, namespace, engines, spellings, llm.alerts());
    }
  }

  private String forTargets(ExportService exports, Inventory inventory, LlmConfig llm) {
    switch (what) {
      case grafana:
        return exports.grafana(inventory, llm.cost());
      case rules:
        return exports.rules(inventory, llm.alerts());
      default:
        return exports.prometheusRule(name, namespace, inventory, llm.alerts());
    }
  }

  private Integer write(String text, PrintWriter err) {
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
