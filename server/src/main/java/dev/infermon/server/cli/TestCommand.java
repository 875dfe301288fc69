package dev.infermon.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code infermon test}: offline tests, as {@code promtool test}; {@code rules} for now. */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description = "Run unit tests of inputs infermon reads.",
    subcommands = {TestRulesCommand.class})
public final class TestCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
