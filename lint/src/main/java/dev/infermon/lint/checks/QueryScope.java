package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.LintQuery;
import dev.infermon.lint.Location;
import dev.infermon.lint.Severity;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.NumberLiteral;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One parsed query under check: its AST and nodes, the reference, and where findings go. Resolves
 * each metric name once. Not thread-safe; lives for one query.
 */
final class QueryScope {
  final LintQuery query;
  final Expr expr;
  final List<ExprWalk.Node> nodes;
  final Reference ref;
  final LintOptions options;
  final Set<String> recorded;
  private final List<Finding> out;
  private final Map<VectorSelector, Integer> offsets = new IdentityHashMap<>();
  private final Map<NumberLiteral, Integer> numbers = new IdentityHashMap<>();
  private final Map<String, MetricInfo> infos = new HashMap<>();

  QueryScope(
      LintQuery query,
      Expr expr,
      Reference ref,
      LintOptions options,
      Set<String> recorded,
      List<Finding> out) {
    this.query = query;
    this.expr = expr;
    this.nodes = ExprWalk.nodes(expr);
    this.ref = ref;
    this.options = options;
    this.recorded = recorded;
    this.out = out;
    Map<String, Integer> seen = new HashMap<>();
    for (ExprWalk.Node n : nodes) {
      if (n.expr() instanceof VectorSelector) {
        VectorSelector vs = (VectorSelector) n.expr();
        String name = vs.name() != null ? vs.name() : ExprWalk.metricName(vs);
        int k = seen.merge(name == null ? "" : name, 1, Integer::sum) - 1;
        offsets.put(vs, name == null ? 0 : ExprWalk.offsetOf(query.expr(), name, k));
      }
    }
    List<NumberLiteral> literals = new ArrayList<>();
    for (ExprWalk.Node n : nodes) {
      if (n.expr() instanceof NumberLiteral) {
        literals.add((NumberLiteral) n.expr());
      }
    }
    List<Integer> at = ExprWalk.numberOffsets(query.expr());
    if (at.size() == literals.size()) {
      for (int i = 0; i < at.size(); i++) {
        numbers.put(literals.get(i), at.get(i));
      }
    }
  }

  /**
   * The location of a number literal ({@code 2} in {@code ... > 2}), or of {@code fallback} when
   * the text's numbers could not be matched to the tree's.
   */
  Location at(NumberLiteral n, Location fallback) {
    Integer o = numbers.get(n);
    return o == null ? fallback : query.at(o);
  }

  /**
   * The location of the first standalone occurrence of {@code word} (a label name), else the start.
   */
  Location atWord(String word) {
    return query.at(ExprWalk.offsetOf(query.expr(), word, 0));
  }

  /** The location of a selector's metric name. */
  Location at(VectorSelector vs) {
    return query.at(offsets.getOrDefault(vs, 0));
  }

  /** The offset of a selector's metric name in the query's text. */
  int offset(VectorSelector vs) {
    return offsets.getOrDefault(vs, 0);
  }

  /** What the reference knows about a sample name (memoised). */
  MetricInfo info(String sample) {
    return infos.computeIfAbsent(sample, ref::resolve);
  }

  /** The metric info of a selector, or null when it selects no single name or one recorded here. */
  MetricInfo info(VectorSelector vs) {
    String name = ExprWalk.metricName(vs);
    if (name == null || recorded.contains(name)) {
      return null;
    }
    // a selector that requires a spelling's telling labels (engine_type!="") reads that spelling
    Set<String> set = new java.util.TreeSet<>();
    for (var m : vs.matchers()) {
      if (!m.matches("") && !m.name().startsWith("__")) {
        set.add(m.name());
      }
    }
    MetricInfo router = ref.routerCopy(name, set);
    if (router != null) {
      return router; // the router's label required: the router's gauge, not the engine's
    }
    Reference.CatalogHit labelled = set.isEmpty() ? null : ref.labelledHit(name, set);
    if (labelled == null) {
      return info(name);
    }
    return infos.computeIfAbsent(
        name + " " + labelled.engine().engine() + "/" + labelled.variant().prefix(),
        k -> ref.resolve(name, labelled));
  }

  /** The walk node of a selector (its ancestors), or null. */
  ExprWalk.Node node(VectorSelector vs) {
    for (ExprWalk.Node n : nodes) {
      if (n.expr() == vs) {
        return n;
      }
    }
    return null;
  }

  /** All selectors of the query, in source order. */
  List<VectorSelector> selectors() {
    List<VectorSelector> s = new ArrayList<>();
    for (ExprWalk.Node n : nodes) {
      if (n.expr() instanceof VectorSelector) {
        s.add((VectorSelector) n.expr());
      }
    }
    return s;
  }

  void report(CheckId check, Location at, String message, String fix, String subject) {
    out.add(Finding.of(check, at, message, fix, subject));
  }

  void report(
      CheckId check, Severity severity, Location at, String message, String fix, String subject) {
    out.add(new Finding(check, severity, at, message, fix, subject));
  }
}
