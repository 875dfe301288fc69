package dev.infermon.server;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code infermon} command. Subcommands are added as the modules behind them land. */
@Command(
    name = "infermon",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Monitoring for LLM inference services (vLLM, SGLang) and their GPUs.",
      "",
      "Discovers inference pods, scrapes them into an embedded Prometheus-compatible",
      "engine, shows the LLM-inference dashboard, evaluates alerts and explains what",
      "it sees."
    },
    subcommands = {
      CommandLine.HelpCommand.class,
      dev.infermon.server.cli.DemoCommand.class,
      dev.infermon.server.cli.SimulateCommand.class,
      dev.infermon.server.cli.ServeCommand.class,
      dev.infermon.server.cli.CheckCommand.class,
      dev.infermon.server.cli.TestCommand.class,
      dev.infermon.server.cli.ExportCommand.class,
      dev.infermon.server.cli.LintCommand.class,
      dev.infermon.server.cli.DiagnoseCommand.class,
      dev.infermon.server.cli.ReportCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Entry point; exits with the command's exit code. */
  public static void main(String[] args) {
    avoidThreadPerTaskCompletions();
    System.exit(run(args));
  }

  /**
   * With fewer than three cores the common pool has parallelism 1, and CompletableFuture then runs
   * every default-executor async completion on a new thread. The JDK HTTP client completes each
   * response body that way, so every scrape started and ended a thread (27 a second for 135 targets
   * at 5 s; measured with JFR, see docs/benchmarks.md). Two common-pool threads reuse threads
   * instead. Must run before anything touches CompletableFuture; an explicit setting wins.
   */
  static void avoidThreadPerTaskCompletions() {
    String key = "java.util.concurrent.ForkJoinPool.common.parallelism";
    if (System.getProperty(key) == null && Runtime.getRuntime().availableProcessors() < 3) {
      System.setProperty(key, "2");
    }
  }

  /** Runs the command line and returns its exit code (tests call this instead of main). */
  public static int run(String... args) {
    return newCommandLine().execute(args);
  }

  /** The build's version, from {@code version.properties}. */
  public static String version() {
    return VersionProvider.version();
  }

  static CommandLine newCommandLine() {
    return new CommandLine(new Main());
  }

  @Override
  public void run() {
    // No subcommand: show usage, as git and promtool do.
    spec.commandLine().usage(System.out);
  }
}
