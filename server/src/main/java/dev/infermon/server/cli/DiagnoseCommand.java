package dev.infermon.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.infermon.llm.diagnosis.Diagnosis;
import dev.infermon.llm.diagnosis.DiagnosisJson;
import dev.infermon.llm.diagnosis.DiagnosisRequest;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.diagnosis.Evidence;
import dev.infermon.llm.diagnosis.Finding;
import dev.infermon.llm.diagnosis.NotMeasured;
import dev.infermon.llm.diagnosis.Symptom;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.server.runtime.LlmLayer;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code infermon diagnose}: walks the causal chain per model and pod over a window of what a
 * running infermon (or any Prometheus-compatible API) stores and prints the states it finds with
 * their evidence, the symptoms of the default alerts no state explains, and what it could not read
 * (docs/diagnosis.md), through the LLM layer's {@link DiagnosisService} (which decides the step and
 * uses the default alert thresholds). Exit status 0 when no state and no symptom was found in what
 * could be read, 1 when one was, 2 for usage errors or an unreachable API.
 */
@Command(
    name = "diagnose",
    mixinStandardHelpOptions = true,
    description = {
      "Diagnose LLM inference pods over a time window: saturated, KV pressure, deferred by",
      "configuration, idle GPU with a long queue, prefill-bound, decode-bound, a slow pod, errors",
      "rising, GPU memory near full, prefill/decode bottleneck, restarts; each with its evidence.",
      "A symptom of the default alerts that no state explains is reported as cause-not-found",
      "with the signals that could not be read; so is, per pod, every signal not measured",
      "(docs/diagnosis.md).",
      "Exit status: 0 nothing found, 1 states or symptoms found, 2 usage error or API unreachable."
    })
public final class DiagnoseCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin ApiOptions api = new ApiOptions();

  @Option(
      names = "--window",
      defaultValue = DiagnosisService.DEFAULT_WINDOW,
      paramLabel = "DURATION",
      description = "How far back to look (default: ${DEFAULT-VALUE}).")
  String window;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "text",
      paramLabel = "FORMAT",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  String output;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!output.equals("text") && !output.equals("json")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "unknown output format \"" + output + "\" (text or json)");
    }
    long windowMs = ApiOptions.windowMs(spec, window);
    DiagnosisRequest request =
        new DiagnosisRequest(
            OptionalLong.empty(), api.endMs(), OptionalLong.of(windowMs), OptionalLong.empty());
    Diagnosis d;
    try {
      RemoteQueryBackend backend = api.backend(Duration.ofSeconds(60));
      d = LlmLayer.over(backend).diagnosis().diagnose(request);
    } catch (RuntimeException e) {
      err.println("infermon diagnose: " + e.getMessage());
      err.flush();
      return 2;
    }
    if (output.equals("json")) {
      out.println(
          new ObjectMapper()
              .enable(SerializationFeature.INDENT_OUTPUT)
              .writeValueAsString(DiagnosisJson.tree(d)));
    } else {
      out.print(text(d));
    }
    out.flush();
    return d.findings().isEmpty() ? 0 : 1;
  }

  static String text(Diagnosis d) {
    StringBuilder sb = new StringBuilder();
    sb.append("Diagnosis of ")
        .append(d.pods().size())
        .append(" pods from ")
        .append(Instant.ofEpochMilli(d.startMs()))
        .append(" to ")
        .append(Instant.ofEpochMilli(d.endMs()))
        .append('\n');
    if (d.findings().isEmpty()) {
      sb.append(
          d.notMeasured().isEmpty() && d.unexamined().isEmpty()
              ? "nothing looks wrong\n"
              : d.unexamined().isEmpty()
                  ? "nothing looks wrong in what could be read; the signals below were not\n"
                  : "nothing looks wrong in what could be read; the targets and signals below"
                      + " were not\n");
    }
    if (!d.unexamined().isEmpty()) {
      sb.append("\nnot examined, so never judged:\n");
      for (String u : d.unexamined()) {
        sb.append("  ").append(u).append('\n');
      }
    }
    for (Finding f : d.findings()) {
      sb.append('\n')
          .append(f.state().id())
          .append("  ")
          .append(f.model())
          .append(f.pod().isEmpty() ? "" : "  " + f.namespace() + "/" + f.pod())
          .append('\n')
          .append("  ")
          .append(f.summary())
          .append('\n');
      if (!f.symptoms().isEmpty()) {
        sb.append("  symptoms: ")
            .append(String.join(", ", f.symptoms().stream().map(Symptom::id).toList()))
            .append('\n');
      }
      if (!f.notRead().isEmpty()) {
        sb.append("  not read: ").append(String.join(", ", f.notRead())).append('\n');
      }
      for (Evidence e : f.evidence()) {
        sb.append(
            String.format(
                Locale.ROOT,
                "    %s = %.4g at %s (%s)%n      %s%n",
                e.signal(),
                e.value(),
                Instant.ofEpochMilli(e.timeMs()),
                e.note(),
                e.query()));
      }
    }
    if (!d.notMeasured().isEmpty()) {
      sb.append("\nnot measured, so never judged:\n");
      for (NotMeasured n : d.notMeasured()) {
        sb.append("  ")
            .append(n.namespace())
            .append('/')
            .append(n.pod())
            .append(" (")
            .append(n.model())
            .append("): ")
            .append(String.join(", ", n.signals()))
            .append('\n');
      }
    }
    return sb.toString();
  }
}
