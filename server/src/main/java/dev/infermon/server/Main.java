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
      dev.infermon.server.cli.SimulateCommand.class,
      dev.infermon.server.cli.ServeCommand.class,
      dev.infermon.server.cli.CheckCommand.class,
      dev.infermon.server.cli.TestCommand.class,
      dev.infermon.server.cli.ExportCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Entry point; exits with the command's exit code. */
  public static void main(String[] args) {
    System.exit(run(args));
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
