package dev.infermon.server.cli;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.LintService;
import dev.infermon.lint.Location;
import dev.infermon.lint.report.JsonReport;
import dev.infermon.lint.report.SarifReport;
import dev.infermon.lint.report.TextReport;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.server.Main;
import dev.infermon.server.runtime.LlmLayer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
 * was found, 0 otherwise, 2 for a usage error (picocli's) or an input that could not be linted (a
 * file that cannot be read, an endpoint or API that cannot be reached, JSON that is not a
 * dashboard: one line each on standard error, the rest still linted and the report still printed),
 * so CI pipelines can gate on it.
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
      "Exit status: 1 when errors were found, 0 otherwise, 2 for usage errors and inputs that",
      "cannot be linted (a missing file, an unreachable endpoint, JSON that is not a dashboard);",
      "those are named on standard error and the rest is still linted and reported."
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
    if (!endpoints.isEmpty() && url != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "give --endpoint or --url, not both");
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
    List<Finding> problems = new ArrayList<>();
    LintService.Checker checker = checker(layer, windowMs, problems);
    List<LintInput> inputs = new ArrayList<>();
    for (Path f : files) {
      try {
        inputs.add(LintInput.file(f.toString(), Files.readString(f, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        problems.add(inputError(f.toString(), "cannot read the file: " + why(e)));
      }
    }
    for (int i = 0; i < exprs.size(); i++) {
      inputs.add(
          LintInput.expr(exprs.size() == 1 ? "<expr>" : "<expr " + (i + 1) + ">", exprs.get(i)));
    }
    LintResult r = checker.lint(inputs, options);
    List<Finding> all = new ArrayList<>(problems);
    all.addAll(r.findings());
    int read = r.inputs();
    if (config != null) {
      try {
        all.addAll(sloFindings(checker));
        read++;
      } catch (ConfigException | IOException e) {
        all.add(inputError(config.toString(), "cannot read the configuration: " + why(e)));
      }
    }
    r = new LintResult(all, read, r.queries(), r.reference());
    for (Finding f : r.inputErrors()) {
      err.println("infermon lint: " + f.location().position() + ": " + f.message());
    }
    err.flush();
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
    if (!r.inputErrors().isEmpty()) {
      return 2;
    }
    return r.hasErrors() ? 1 : 0;
  }

  /**
   * The reference the flags ask for, read now: live endpoints, a stored API, or the catalog. An
   * endpoint or API that cannot be read adds its problem to {@code problems}: the endpoints left,
   * or the catalog, judge instead.
   */
  private LintService.Checker checker(LlmLayer layer, long windowMs, List<Finding> problems)
      throws InterruptedException {
    if (!endpoints.isEmpty()) {
      return layer.lint().live(endpoints);
    }
    if (url != null) {
      try {
        layer.bind(
            QueryStack.withoutCache(
                new RemoteQueryBackend(
                    url,
                    Duration.ofSeconds(30),
                    HttpClientConfig.DEFAULT,
                    "infermon/" + Main.version())));
        return layer.lint().stored(OptionalLong.of(windowMs));
      } catch (RuntimeException e) {
        problems.add(
            inputError(
                url.toString(),
                "cannot read the stored series: " + why(e) + "; the catalog judges instead"));
      }
    }
    return layer.lint().catalogOnly();
  }

  private static Finding inputError(String where, String message) {
    return Finding.of(CheckId.INPUT_ERROR, Location.at(where, 0, 0), message, "", where);
  }

  /** One line of why: the JDK's I/O exceptions name only the file ({@code NoSuchFileException}). */
  private static String why(Exception e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      return e.getClass().getSimpleName();
    }
    return m.lines().findFirst().orElse(m);
  }

  private List<Finding> sloFindings(LintService.Checker lint) throws IOException, ConfigException {
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
