package dev.infermon.server.cli;

import dev.infermon.simulator.replay.CaptureException;
import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The flags that replay real {@code /metrics} captures as live targets, shared by {@code simulate}
 * and {@code demo} (a picocli mixin): {@code --replay FILE[,label=value...]}, repeatable, and
 * {@code --replay-uptime}.
 */
final class ReplayOptions {
  @Option(
      names = "--replay",
      paramLabel = "FILE[,label=value...]",
      description =
          "Serve a real /metrics capture as a live target instead of the simulated fleet"
              + " (repeatable): counters and histograms advance at the capture's value per"
              + " --replay-uptime, gauges stay as captured. Labels set the target's labels"
              + " (defaults: namespace=replay, pod=<file name>, backend=<engine of its names>;"
              + " job=... sets the scrape job, label= with no value removes one).")
  List<String> specs = new ArrayList<>();

  @Option(
      names = "--replay-uptime",
      paramLabel = "DURATION",
      converter = SimulateCommand.DurationConverter.class,
      defaultValue = "1h",
      description =
          "How long the captured counters took to reach their values: each grows by its"
              + " captured value per this duration (default: ${DEFAULT-VALUE}). Capture time"
              + " minus process_start_time_seconds gives the real mean rates.")
  Duration uptime;

  /** Whether any capture was given. */
  boolean given() {
    return !specs.isEmpty();
  }

  /** A capture that cannot be replayed: a missing or unreadable file, or not an exposition page. */
  static final class BadCapture extends Exception {
    private static final long serialVersionUID = 1L;

    BadCapture(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Reads every capture, and says once on {@code err} how many cut lines each lost.
   *
   * @throws CommandLine.ParameterException for a bad {@code label=value} or two targets with one
   *     name (usage errors)
   * @throws BadCapture for a missing or unreadable file, or one that is not an exposition page
   *     (naming the line)
   */
  List<ReplayTarget> load(CommandSpec spec, PrintWriter err) throws BadCapture {
    CommandLine cl = spec.commandLine();
    if (uptime.isNegative() || uptime.isZero()) {
      throw new CommandLine.ParameterException(cl, "--replay-uptime must be positive: " + uptime);
    }
    List<ReplayTarget> targets = new ArrayList<>();
    for (String s : specs) {
      ReplayTarget t;
      try {
        t = ReplayTarget.fromSpec(s, uptime);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, e.getMessage(), e);
      } catch (CaptureException e) {
        throw new BadCapture(e.getMessage(), e);
      } catch (NoSuchFileException e) {
        throw new BadCapture("no such capture file: " + e.getFile(), e);
      } catch (IOException e) {
        throw new BadCapture("cannot read capture " + s + ": " + e.getMessage(), e);
      }
      List<Integer> dropped = t.capture().droppedLines();
      if (!dropped.isEmpty()) {
        err.printf(
            "infermon %s: %s: dropped %d cut line%s at its end (from line %d)%n",
            spec.name(),
            t.capture().name(),
            dropped.size(),
            dropped.size() == 1 ? "" : "s",
            dropped.get(0));
        err.flush();
      }
      targets.add(t);
    }
    try {
      ReplayFleet.of(targets, 0); // names are unique
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage(), e);
    }
    return targets;
  }

  /**
   * Refuses the options of mixin {@code fleetMixin} and those named {@code alsoFleetOnly} when
   * given with {@code --replay}: they shape the simulated fleet, which a replay does not run.
   */
  static void refuseFleetFlags(CommandSpec spec, String fleetMixin, Set<String> alsoFleetOnly) {
    CommandSpec mixin = spec.mixins().get(fleetMixin);
    for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
      boolean fleet =
          alsoFleetOnly.contains(o.longestName())
              || (mixin != null
                  && mixin.options().stream().anyMatch(m -> Arrays.equals(m.names(), o.names())));
      if (fleet) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            o.longestName() + " shapes the simulated fleet; it does not apply to --replay");
      }
    }
  }

  /** {@code name=value,...} of a target's labels, and its job, for the printed inventory. */
  static String describe(ReplayTarget t) {
    StringBuilder sb = new StringBuilder("job=").append(t.job());
    for (Map.Entry<String, String> e : t.labels().entrySet()) {
      sb.append(',').append(e.getKey()).append('=').append(e.getValue());
    }
    return sb.toString();
  }

  /** {@code 1h}, {@code 90m}, {@code 45s}: the largest unit that divides the duration. */
  static String human(Duration d) {
    long s = d.toSeconds();
    if (s > 0 && s % 3600 == 0) {
      return s / 3600 + "h";
    }
    if (s > 0 && s % 60 == 0) {
      return s / 60 + "m";
    }
    return d.toMillis() % 1000 == 0 ? s + "s" : d.toMillis() + "ms";
  }
}
