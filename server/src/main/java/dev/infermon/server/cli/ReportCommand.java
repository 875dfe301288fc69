package dev.infermon.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.report.Report;
import dev.infermon.llm.report.ReportJson;
import dev.infermon.llm.report.ReportRequest;
import dev.infermon.llm.report.ReportService;
import dev.infermon.llm.report.ReportText;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.server.runtime.LlmLayer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code infermon report}: per model, over a window of what a running infermon (or any
 * Prometheus-compatible API) stores, the traffic, the SLOs' attainment, the worst periods with
 * their diagnosis, the capacity headroom and the cost (docs/report.md), through the LLM layer's
 * {@link ReportService}, which decides the periods and the defaults. The prices and SLOs are those
 * of {@code --config}'s {@code llm} section. Progress goes to stderr. Exit status 0 with a report,
 * 2 for usage errors, an unreachable API or a window without samples.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Report per model over a window: traffic (requests, tokens, mean and peak rate), SLO",
      "attainment (llm.slos of --config, else the alert pack's TTFT and success objectives), the",
      "worst periods by time to first token with their diagnosis, capacity headroom, efficiency",
      "and cost per million tokens (llm.cost of --config) (docs/report.md).",
      "Exit status: 0 a report, 2 usage error, API unreachable or no samples in the window."
    })
public final class ReportCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin ApiOptions api = new ApiOptions();

  @Option(
      names = "--window",
      defaultValue = ReportService.DEFAULT_WINDOW,
      paramLabel = "DURATION",
      description = "How far back to report (default: ${DEFAULT-VALUE}, at most 90d).")
  String window;

  @Option(
      names = "--model",
      defaultValue = "",
      paramLabel = "NAME",
      description = "Only this model_name (default: every model with samples).")
  String model;

  @Option(
      names = "--worst",
      paramLabel = "N",
      description = "Worst periods per model (default: " + ReportService.DEFAULT_WORST + ").")
  Integer worst;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "An infermon configuration whose llm section (slos, cost, alerts) to use.")
  Path config;

  @Option(
      names = {"-o", "--format"},
      defaultValue = "text",
      paramLabel = "FORMAT",
      description = "text, json or markdown (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!List.of("text", "json", "markdown").contains(format)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "unknown format \"" + format + "\" (text, json or markdown)");
    }
    long windowMs = ApiOptions.windowMs(spec, window);
    LlmConfig llm = LlmConfig.DEFAULT;
    if (config != null) {
      try {
        llm = ConfigLoader.create().load(config).llm();
      } catch (ConfigException e) {
        err.println(
            "infermon report: cannot read the configuration " + config + ": " + e.getMessage());
        err.flush();
        return 2;
      }
    }
    ReportRequest request =
        new ReportRequest(
            api.endMs(),
            OptionalLong.of(windowMs),
            model,
            worst == null ? OptionalInt.empty() : OptionalInt.of(worst));
    Report r;
    try {
      RemoteQueryBackend backend = api.backend(Duration.ofSeconds(120));
      r =
          LlmLayer.over(backend, llm)
              .report()
              .report(
                  request,
                  line -> {
                    err.println("infermon report: " + line);
                    err.flush();
                  });
    } catch (BadParameterException e) {
      err.println("infermon report: --" + e.parameter() + ": " + e.getMessage());
      err.flush();
      return 2;
    } catch (RuntimeException e) {
      err.println("infermon report: cannot read " + api.url + ": " + e.getMessage());
      err.flush();
      return 2;
    }
    switch (format) {
      case "json" ->
          out.println(
              new ObjectMapper()
                  .enable(SerializationFeature.INDENT_OUTPUT)
                  .writeValueAsString(ReportJson.tree(r)));
      case "markdown" -> out.print(ReportText.markdown(r));
      default -> out.print(ReportText.text(r));
    }
    out.flush();
    return 0;
  }
}
