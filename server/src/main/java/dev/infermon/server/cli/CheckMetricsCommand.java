package dev.infermon.server.cli;

import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code infermon check metrics [--format text|openmetrics|auto] [--lenient] [FILE]}: parses one
 * exposition page, as {@code promtool check metrics} does, and prints each error as {@code
 * FILE:LINE:COLUMN: message} on standard error, then a summary on standard output. Exit status 0
 * when the page parses, 1 when it does not, 2 on a usage error (including a missing file).
 *
 * <p>The page is checked against its format's full rules ({@link Conformance#STRICT}) unless {@code
 * --lenient} asks for what the scrape path accepts. After an error confined to one line the check
 * goes on with the next line, so one run reports every bad line (up to {@value #MAX_ERRORS}).
 */
@Command(
    name = "metrics",
    mixinStandardHelpOptions = true,
    description = {
      "Check an exposition page (Prometheus text 0.0.4 or OpenMetrics 1.0) from FILE, or from"
          + " standard input when no FILE is given.",
      "Prints each error as FILE:LINE:COLUMN: message, then a summary. Exit status: 0 when the"
          + " page parses, 1 when it does not, 2 on a usage error."
    })
public final class CheckMetricsCommand implements Callable<Integer> {
  static final int MAX_ERRORS = 100;

  /** The page format to assume. */
  enum FormatChoice {
    text,
    openmetrics,
    auto
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--format",
      description =
          "text, openmetrics, or auto (default: ${DEFAULT-VALUE}): auto takes OpenMetrics when a"
              + " line is # UNIT or a TYPE only OpenMetrics has, else text when a line is blank,"
              + " an untyped TYPE, a counter TYPE named *_total or another comment, else"
              + " OpenMetrics when the page ends with # EOF, else text.")
  FormatChoice format = FormatChoice.auto;

  @Option(
      names = "--lenient",
      description =
          "Check only the grammar, as the scrape path (and Prometheus) reads pages: repeated or"
              + " late metadata and family rules are not errors.")
  boolean lenient;

  @Parameters(
      arity = "0..1",
      paramLabel = "FILE",
      description = "The page to check; standard input when absent.")
  Path file;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String name = file == null ? "<stdin>" : file.toString();
    ParserOptions options =
        ParserOptions.builder()
            .conformance(lenient ? Conformance.LENIENT : Conformance.STRICT)
            .build();
    byte[] page;
    try {
      page = read(options.maxBodyBytes());
    } catch (NoSuchFileException e) {
      err.println(name + ": no such file");
      err.flush();
      return CommandLine.ExitCode.USAGE;
    } catch (IOException e) {
      err.println(name + ": cannot read: " + e.getMessage());
      err.flush();
      return CommandLine.ExitCode.USAGE;
    }
    Format chosen = chosenFormat(page);
    Parser parser = Parsers.forFormat(chosen, options).parse(page);
    Set<String> families = new HashSet<>();
    int samples = 0;
    int errors = 0;
    while (true) {
      Entry e;
      try {
        e = parser.next();
      } catch (ParseException ex) {
        errors++;
        if (errors <= MAX_ERRORS) {
          err.println(name + ":" + ex.line() + ":" + ex.column() + ": " + ex.detail());
        }
        if (ex.isLineLocal() && errors <= MAX_ERRORS) {
          continue;
        }
        break;
      }
      if (e == Entry.EOF) {
        break;
      }
      if (e == Entry.HELP || e == Entry.TYPE || e == Entry.UNIT) {
        families.add(parser.familyName());
      } else if (e == Entry.SERIES) {
        samples++;
      }
    }
    if (errors > MAX_ERRORS) {
      err.println(name + ": stopped after " + MAX_ERRORS + " errors");
    }
    err.flush();
    out.println(
        String.format(
            Locale.ROOT,
            "%s: %s (%s): %d families with metadata, %d samples, %d %s",
            name,
            errors == 0 ? "OK" : "FAILED",
            chosen == Format.OPENMETRICS ? "OpenMetrics" : "text",
            families.size(),
            samples,
            errors,
            errors == 1 ? "error" : "errors"));
    out.flush();
    return errors == 0 ? CommandLine.ExitCode.OK : 1;
  }

  private Format chosenFormat(byte[] page) {
    switch (format) {
      case text:
        return Format.TEXT;
      case openmetrics:
        return Format.OPENMETRICS;
      default:
        return Parsers.sniff(page, page.length);
    }
  }

  /**
   * Reads the page, at most one byte past the body limit so that an over-limit page still fails
   * with the parser's own error rather than exhausting memory.
   */
  private byte[] read(long limit) throws IOException {
    try (InputStream in = file == null ? System.in : Files.newInputStream(file)) {
      return in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
    }
  }
}
