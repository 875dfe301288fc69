package dev.infermon.lint.checks;

import dev.infermon.llm.catalog.History;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.VectorSelector;
import java.util.List;

/**
 * Names joined with {@code or} as alternatives of one quantity: a dashboard or alert that must span
 * releases and spellings writes {@code vllm:kv_cache_usage_perc or vllm:gpu_cache_usage_perc}, and
 * the branch a target lacks is meant to be empty. A name of the catalog is covered when another
 * operand of an {@code or} above it reads an exposed name of the same engine that measures the same
 * thing: a rename of it (the catalog's history), a source of the same signal (SGLang's three
 * hit-rate sources), the same family in the other spelling (exposed, or in the spelling the
 * engine's targets use while this one's is used by none); or, for a family created lazily, any
 * exposed name of the engine (the {@code or} is the fallback while it does not exist yet). A name
 * {@code and}-ed with an operand whose families none of its engine's targets can serve is covered
 * too: the condition cannot hold there in any spelling. Names the catalog does not know are never
 * covered: a typo stays a typo. Stateless.
 */
final class Alternatives {
  private Alternatives() {}

  /**
   * Whether {@code info} names a family in a product's spelling (NVIDIA NIM's unprefixed names, its
   * own counters included), and the endpoints have engine targets, none of them in that spelling:
   * an alert that reads the product's pods apart (NIM's queue, which waits for a slot since NIM
   * serves no preemption counter) has a branch of the product's names alone, empty elsewhere.
   */
  private static boolean othersOwn(QueryScope s, MetricInfo info) {
    Reference.CatalogHit hit = info.hit();
    if (hit == null || hit.variant().product() == null) {
      return false;
    }
    java.util.Set<dev.infermon.llm.catalog.Spelling> used = s.ref.spellingsOf(hit.engine());
    return !used.isEmpty() && used.stream().noneMatch(sp -> sp.variant().equals(hit.variant()));
  }

  static boolean covered(QueryScope s, VectorSelector vs, MetricInfo info) {
    if (info.exposed() && !deprecatedIn(s, info)) {
      return false;
    }
    ExprWalk.Node n = s.node(vs);
    if (n == null) {
      return false;
    }
    List<Expr> ancestors = n.ancestors();
    if (othersOwn(s, info)
        && ancestors.stream()
            .anyMatch(a -> a instanceof BinaryExpr && ((BinaryExpr) a).op() == BinaryOp.LOR)) {
      return true; // NIM's branch of an or: empty on other spellings' targets
    }
    if (andedWithUnserved(s, ancestors, vs, info)) {
      return true;
    }
    Expr child = vs;
    for (int i = ancestors.size() - 1; i >= 0; i--) {
      Expr a = ancestors.get(i);
      if (a instanceof BinaryExpr && ((BinaryExpr) a).op() == BinaryOp.LOR) {
        BinaryExpr or = (BinaryExpr) a;
        Expr other = contains(or.lhs(), child) ? or.rhs() : or.lhs();
        for (VectorSelector t : ExprWalk.selectors(other)) {
          MetricInfo ti = s.info(t);
          if (ti == null || ti.hit() == null) {
            continue;
          }
          if (ti.exposed() && sameQuantity(s, info, ti)) {
            return true;
          }
          if (fixIsThere(s, info, ti)) {
            return true;
          }
        }
      }
      child = a;
    }
    return false;
  }

  /**
   * Whether {@code info} is {@code and}-ed with families of its engine that no spelling the
   * engine's targets use serves (NVIDIA NIM's subset lacks vLLM's {@code num_preemptions_total}):
   * on those targets the condition is empty in every spelling, so the name's spelling is no fault
   * (an alert that reads the engine's own pods apart, as the queue-while-preempting rule does); the
   * other operand gets the finding that says why.
   */
  private static boolean andedWithUnserved(
      QueryScope s, List<Expr> ancestors, Expr vs, MetricInfo info) {
    Expr child = vs;
    for (int i = ancestors.size() - 1; i >= 0; i--) {
      Expr a = ancestors.get(i);
      if (a instanceof BinaryExpr && ((BinaryExpr) a).op() == BinaryOp.LAND) {
        BinaryExpr and = (BinaryExpr) a;
        Expr other = contains(and.lhs(), child) ? and.rhs() : and.lhs();
        if (unsatisfiable(s, other, info)) {
          return true;
        }
      }
      child = a;
    }
    return false;
  }

  /**
   * Whether every selector of {@code operand} names a family of {@code info}'s engine that no
   * spelling of the engine's targets serves: one branch a target does serve (NIM's own {@code
   * request_failure_total} beside vLLM's finish reasons) makes the operand satisfiable.
   */
  private static boolean unsatisfiable(QueryScope s, Expr operand, MetricInfo info) {
    List<VectorSelector> selectors = ExprWalk.selectors(operand);
    for (VectorSelector t : selectors) {
      MetricInfo ti = s.info(t);
      if (ti == null
          || ti.hit() == null
          || ti.hit().engine() != info.hit().engine()
          || ti.exposed()
          || !noTargetServes(s, ti)) {
        return false;
      }
    }
    return !selectors.isEmpty();
  }

  private static boolean noTargetServes(QueryScope s, MetricInfo info) {
    var engine = info.hit().engine();
    java.util.Set<dev.infermon.llm.catalog.Spelling> used = s.ref.spellingsOf(engine);
    String family = info.hit().latest().name();
    return !used.isEmpty() && used.stream().noneMatch(sp -> engine.serves(sp.variant(), family));
  }

  /**
   * Whether the fix of {@code info}'s finding is {@code sibling}, already in the query: an old name
   * whose replacement is or-ed beside it, or a name the endpoints' releases do not have yet beside
   * the name it was renamed from. Where neither branch is exposed the sibling gets its own finding;
   * this one would only repeat it.
   */
  private static boolean fixIsThere(QueryScope s, MetricInfo info, MetricInfo sibling) {
    if (info.hit().engine() != sibling.hit().engine()) {
      return false;
    }
    MetricEntry x = info.hit().latest();
    String y = sibling.hit().latest().name();
    if (y.equals(x.name()) && inTargetSpelling(s, sibling) && !inTargetSpelling(s, info)) {
      return true; // the same family in the spelling the targets use is or-ed beside it
    }
    if (y.equals(x.name())
        && !inTargetSpelling(s, sibling)
        && !inTargetSpelling(s, info)
        && isDefault(sibling)
        && !isDefault(info)) {
      // no target uses either spelling (NIM's page lacks the family in every one): the engine's
      // own spelling beside it gets the finding, this one would repeat it
      return true;
    }
    if (y.equals(x.history().replacedBy())) {
      return true;
    }
    return y.equals(x.history().renamedFrom())
        && !NameHistory.existsInTargetReleases(s, info.hit().engine(), x.name());
  }

  private static boolean isDefault(MetricInfo info) {
    return info.hit().variant().equals(info.hit().engine().variants().get(0));
  }

  /** Whether a target of the name's engine spells its names as {@code info} is spelt. */
  private static boolean inTargetSpelling(QueryScope s, MetricInfo info) {
    for (dev.infermon.llm.catalog.Spelling sp : s.ref.spellingsOf(info.hit().engine())) {
      if (sp.variant().equals(info.hit().variant())) {
        return true;
      }
    }
    return false;
  }

  private static boolean deprecatedIn(QueryScope s, MetricInfo info) {
    History h = info.hit().latest().history();
    return h.deprecated() != null
        && s.ref.releases(info.hit().engine()).last().atLeast(h.deprecated());
  }

  private static boolean contains(Expr root, Expr node) {
    for (ExprWalk.Node n : ExprWalk.nodes(root)) {
      if (n.expr() == node) {
        return true;
      }
    }
    return false;
  }

  private static boolean sameQuantity(QueryScope s, MetricInfo a, MetricInfo b) {
    if (a.hit().engine() != b.hit().engine()) {
      return false;
    }
    MetricEntry x = a.hit().latest();
    MetricEntry y = b.hit().latest();
    if (x.name().equals(y.name()) || renamed(x, y) || renamed(y, x)) {
      return true;
    }
    if (x.lazy() && NameHistory.existsInTargetReleases(s, a.hit().engine(), x.name())) {
      return true; // not created yet where it exists: the or is the fallback meanwhile
    }
    for (List<SignalSource> sources : a.hit().engine().signals().values()) {
      boolean hasX = false;
      boolean hasY = false;
      for (SignalSource src : sources) {
        hasX |= src.metrics().contains(x.name());
        hasY |= src.metrics().contains(y.name());
      }
      if (hasX && hasY) {
        return true;
      }
    }
    return false;
  }

  private static boolean renamed(MetricEntry from, MetricEntry to) {
    History h = from.history();
    return to.name().equals(h.replacedBy())
        || from.name().equals(to.history().renamedFrom())
        || to.name().equals(h.renamedFrom());
  }
}
