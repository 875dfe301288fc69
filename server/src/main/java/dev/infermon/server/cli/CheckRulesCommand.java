package dev.infermon.server.cli;

import dev.infermon.rules.rulefmt.RuleFileChecker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code infermon check rules FILE...}: validates Prometheus rule files as {@code promtool check
 * rules} does. Prints {@code Checking FILE} and {@code SUCCESS: N rules found} on standard output,
 * {@code FAILED:} and each problem ({@code FILE: LINE:COL: group "g", rule N, "name": message}) on
 * standard error. Exit status 0 when every file is valid, 1 otherwise.
 */
@Command(
    name = "rules",
    mixinStandardHelpOptions = true,
    description = {
      "Check Prometheus rule files (syntax, expressions, templates), as promtool check rules.",
      "Exit status: 0 when all files are valid, 1 otherwise."
    })
public final class CheckRulesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Rule files to check.")
  List<Path> files;

  @Override
  public Integer call() {
    return RuleFileChecker.check(files, spec.commandLine().getOut(), spec.commandLine().getErr());
  }
}
