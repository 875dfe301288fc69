package dev.infermon.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code infermon check}: offline checks of the inputs infermon reads, as {@code promtool check}
 * does. {@code metrics} checks an exposition page; rule and config checks join here.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = "Check the inputs infermon reads, without running it.",
    subcommands = {CheckMetricsCommand.class, CheckRulesCommand.class})
public final class CheckCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    // No check named: show what can be checked.
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
