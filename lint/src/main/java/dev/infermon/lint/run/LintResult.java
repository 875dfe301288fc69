package dev.infermon.lint.run;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.Severity;
import java.util.List;

/**
 * The findings of one lint run, sorted by file, line, column and check, and what was checked.
 * Immutable.
 *
 * @param findings every finding
 * @param inputs how many inputs were read
 * @param queries how many expressions were checked
 * @param reference what the queries were checked against ({@code catalog}, {@code live}, {@code
 *     stored}) and, for endpoints, how many targets
 */
public record LintResult(List<Finding> findings, int inputs, int queries, String reference) {
  public LintResult {
    findings = List.copyOf(findings);
  }

  /** The number of findings of a severity. */
  public long count(Severity s) {
    return findings.stream().filter(f -> f.severity() == s).count();
  }

  /** Whether any finding is an error (the exit code of {@code infermon lint} is then 1). */
  public boolean hasErrors() {
    return count(Severity.ERROR) > 0;
  }

  /**
   * The findings about inputs that could not be linted at all: a file that cannot be read, an
   * endpoint that cannot be scraped, JSON that is not a dashboard ({@code infermon lint} exits 2).
   */
  public List<Finding> inputErrors() {
    return findings.stream().filter(f -> f.check() == CheckId.INPUT_ERROR).toList();
  }
}
