package dev.infermon.rules.rulefmt;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code promtool check rules}: for each file, {@code Checking FILE} then {@code SUCCESS: N rules
 * found} on stdout, or {@code FAILED:} and one line per problem on stderr. Exit code 0 when every
 * file is valid, 1 otherwise. Stateless.
 */
public final class RuleFileChecker {
  private RuleFileChecker() {}

  public static int check(List<Path> files, PrintWriter out, PrintWriter err) {
    boolean failed = false;
    for (Path f : files) {
      out.println("Checking " + f);
      try {
        RuleFile rf = RuleFileParser.load(f);
        out.println("  SUCCESS: " + rf.ruleCount() + " rules found");
      } catch (RuleFileException e) {
        failed = true;
        err.println("  FAILED:");
        for (RuleError re : e.errors()) {
          err.println(re);
        }
      }
      out.println();
    }
    out.flush();
    err.flush();
    return failed ? 1 : 0;
  }
}
