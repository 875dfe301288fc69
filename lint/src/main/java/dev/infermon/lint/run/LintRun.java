package dev.infermon.lint.run;

import dev.infermon.lint.Finding;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.LintQuery;
import dev.infermon.lint.checks.Linter;
import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.grafana.DashboardInput;
import dev.infermon.lint.rulesfile.RuleFileInput;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Lints rule files, dashboards and expressions against one reference: reads every input first (so
 * that metrics recorded by any rule file count as known everywhere), then checks each expression.
 * Stateless; thread-safe.
 */
public final class LintRun {
  private static final Comparator<Finding> ORDER =
      Comparator.comparing((Finding f) -> f.location().file())
          .thenComparingInt(f -> f.location().line())
          .thenComparingInt(f -> f.location().column())
          .thenComparing(f -> f.check().id());

  private final Linter linter;

  public LintRun(Reference reference, LintOptions options) {
    this.linter = new Linter(reference, options);
  }

  /** Lints the inputs. */
  public LintResult run(List<LintInput> inputs) {
    List<Finding> findings = new ArrayList<>();
    List<LintQuery> queries = new ArrayList<>();
    Set<String> recorded = new TreeSet<>();
    for (LintInput in : inputs) {
      switch (in.kind()) {
        case RULES:
          {
            RuleFileInput r = RuleFileInput.read(in.name(), in.text());
            findings.addAll(r.problems());
            queries.addAll(r.queries());
            recorded.addAll(r.recorded());
            break;
          }
        case DASHBOARD:
          {
            DashboardInput d = DashboardInput.read(in.name(), in.text());
            findings.addAll(d.problems());
            queries.addAll(d.queries());
            break;
          }
        default:
          queries.add(LintQuery.of(in.text(), in.name()));
      }
    }
    for (LintQuery q : queries) {
      findings.addAll(linter.check(q, recorded));
    }
    findings.sort(ORDER);
    Reference ref = linter.reference();
    String what =
        ref.mode() == Reference.Mode.CATALOG
            ? "catalog"
            : ref.mode().name().toLowerCase(java.util.Locale.ROOT)
                + " ("
                + ref.inventory().targets().size()
                + " targets)";
    return new LintResult(findings, inputs.size(), queries.size(), what);
  }
}
