package dev.infermon.server.cli;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.lint.Finding;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.LintService;
import dev.infermon.lint.Location;
import dev.infermon.lint.report.JsonReport;
import dev.infermon.lint.report.SarifReport;
import dev.infermon.lint.report.TextReport;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.server.Main;
import dev.infermon.server.runtime.LlmLayer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code infermon lint}: checks rule files, Grafana dashboards and expressions against what the
 * endpoints expose (docs/lint.md), through lint's {@link LintService}. Exit status 1 when an error
 * was found, 0 otherwise, 2 for a usage error (picocli's), so CI pipelines can gate on it.
 */
@Command(
    name = "lint",
    mixinStandardHelpOptions = true,
    description = {
      "Lint Prometheus rule files, Grafana dashboards (JSON) and PromQL expressions against what",
      "vLLM, SGLang and dcgm-exporter endpoints really expose: unknown and renamed metrics,",
      "counters without _total, deprecated or removed names, flags that are off, labels that do",
      "not exist, quantile thresholds between histogram buckets, and more (docs/lint.md).",
      "Without --endpoint or --url, names are judged by the catalog's newest releases.",
      "Exit status: 1 when errors were found, 0 otherwise, 2 for usage errors."
    })
public final class LintCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "FILE",
      description = "Rule files (YAML) and Grafana dashboards (JSON).")
  List<Path> files = new ArrayList<>();

  @Option(
      names = {"-e", "--expr"},
      paramLabel = "PROMQL",
      description = "An expression to lint (repeatable).")
  List<String> exprs = new ArrayList<>();

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description = "A /metrics URL to check against, scraped once (repeatable).")
  List<URI> endpoints = new ArrayList<>();

  @Option(
      names = "--url",
      paramLabel = "URL",
      description =
          "A Prometheus-compatible API (infermon, Prometheus, VictoriaMetrics) whose stored series"
              + " to check against.")
  URI url;

  @Option(
      names = "--window",
      defaultValue = LintService.DEFAULT_WINDOW,
      paramLabel = "DURATION",
      description = "With --url: the series seen in this window count (default: ${DEFAULT-VALUE}).")
  String window;

  @Option(
      names = "--scrape-interval",
      defaultValue = LintOptions.DEFAULT_SCRAPE_INTERVAL,
      paramLabel = "DURATION",
      description =
          "Rate windows shorter than four of these are flagged (default: ${DEFAULT-VALUE}).")
  String scrapeInterval;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "An infermon configuration whose llm.slos thresholds to check.")
  Path config;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "text",
      paramLabel = "FORMAT",
      description = "text, json or sarif (default: ${DEFAULT-VALUE}).")
  String output;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!List.of("text", "json", "sarif").contains(output)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "unknown output format \"" + output + "\" (text, json or sarif)");
    }
    if (files.isEmpty() && exprs.isEmpty() && config == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "nothing to lint: give files, --expr or --config");
    }
    LintOptions options;
    long windowMs;
    try {
      options =
          LintOptions.DEFAULT.withScrapeInterval(
              Duration.ofMillis(PromqlParser.parseDuration(scrapeInterval)));
      windowMs = PromqlParser.parseDuration(window);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    LlmLayer layer = new LlmLayer();
    LintService.Checker checker;
    try {
      checker = checker(layer, windowMs);
    } catch (IOException | RuntimeException e) {
      err.println("infermon lint: cannot read the endpoints: " + e.getMessage());
      err.flush();
      return 2;
    }
    List<LintInput> inputs = new ArrayList<>();
    for (Path f : files) {
      inputs.add(LintInput.file(f.toString(), Files.readString(f, StandardCharsets.UTF_8)));
    }
    for (int i = 0; i < exprs.size(); i++) {
      inputs.add(
          LintInput.expr(exprs.size() == 1 ? "<expr>" : "<expr " + (i + 1) + ">", exprs.get(i)));
    }
    LintResult r = checker.lint(inputs, options);
    if (config != null) {
      List<Finding> all = new ArrayList<>(r.findings());
      try {
        all.addAll(sloFindings(layer.lint()));
      } catch (ConfigException e) {
        err.println(e.getMessage());
        err.flush();
        return 2;
      }
      r = new LintResult(all, r.inputs() + 1, r.queries(), r.reference());
    }
    switch (output) {
      case "json":
        out.print(JsonReport.render(r));
        break;
      case "sarif":
        out.print(SarifReport.render(r, Main.version()));
        break;
      default:
        out.print(TextReport.render(r));
    }
    out.flush();
    return r.hasErrors() ? 1 : 0;
  }

  /** The reference the flags ask for, read now: live endpoints, a stored API, or the catalog. */
  private LintService.Checker checker(LlmLayer layer, long windowMs)
      throws IOException, InterruptedException {
    if (!endpoints.isEmpty() && url != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "give --endpoint or --url, not both");
    }
    if (!endpoints.isEmpty()) {
      return layer.lint().live(endpoints);
    }
    if (url != null) {
      layer.bind(
          new RemoteQueryBackend(
              url, Duration.ofSeconds(30), HttpClientConfig.DEFAULT, "infermon/" + Main.version()),
          null);
      return layer.lint().stored(OptionalLong.of(windowMs));
    }
    return layer.lint().catalogOnly();
  }

  private List<Finding> sloFindings(LintService lint) throws IOException, ConfigException {
    List<Finding> out = new ArrayList<>();
    List<LlmConfig.Slo> slos = ConfigLoader.create().load(config).llm().slos();
    List<String> lines = Files.readAllLines(config, StandardCharsets.UTF_8);
    for (LlmConfig.Slo slo : slos) {
      out.addAll(lint.checkSlo(slo, Location.at(config.toString(), lineOf(lines, slo), 0)));
    }
    return out;
  }

  /**
   * The line of the SLO's {@code name:} or, unnamed, of its model (best effort; 0 when unknown).
   */
  private static int lineOf(List<String> lines, LlmConfig.Slo slo) {
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.contains("name:") && l.contains(slo.name())) {
        return i + 1;
      }
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("model:") && lines.get(i).contains(slo.model())) {
        return i + 1;
      }
    }
    return 0;
  }
}
