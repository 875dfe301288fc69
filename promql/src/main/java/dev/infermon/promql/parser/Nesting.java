package dev.infermon.promql.parser;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * How deeply an expression nests, and where recursive work over it runs, so that the depth a query
 * may have does not depend on how much stack its caller's thread has left.
 *
 * <p>The parser, type checker, printer, preprocessor and evaluator walk a chain of binary operators
 * down its left side ({@code a + b + c + ...}, what tools generate) with a loop, so such a chain
 * costs one level however long it is. Everything else (parentheses, calls, aggregations, unary
 * operators, right-associative {@code ^}, subqueries) recurses one level per nesting. Up to {@link
 * #INLINE_DEPTH} levels run on the caller's thread; deeper work runs on a thread of its own whose
 * stack is sized to the depth (Prometheus relies on Go's growing goroutine stacks the same way).
 * Beyond {@link #MAX_DEPTH} levels an expression is refused.
 *
 * <p>Stateless and thread-safe.
 */
public final class Nesting {
  /**
   * The deepest nesting accepted: a parse deeper than this is a {@link ParseException} ({@code
   * expression nested too deeply}). Prometheus 2.42 times out on 100,000 nested parentheses; the
   * stack for this many levels is about 200 MiB of address space, touched only as deep as used.
   */
  public static final int MAX_DEPTH = 100_000;

  /**
   * Levels that run on the caller's thread. Small enough for any thread's stack, even a 256 KiB one
   * already holding a server's frames.
   */
  static final int INLINE_DEPTH = 64;

  /**
   * Stack per level: twice the most any walk took in DeepExpressionsTest's shapes (function calls,
   * aggregations, parentheses, unary operators and {@code ^} all passed at 1 KiB a level, some
   * failed at 512 bytes).
   */
  private static final long BYTES_PER_LEVEL = 2048;

  private static final long BASE_STACK = 1 << 20;

  private Nesting() {}

  /**
   * The levels recursive walks over {@code e} take: one per node on the path to the deepest leaf,
   * where the left operand of a binary operator counts at its operator's level (walked by a loop).
   * Computed without recursion.
   */
  public static int depth(Expr e) {
    ArrayDeque<Expr> nodes = new ArrayDeque<>();
    ArrayDeque<Integer> levels = new ArrayDeque<>();
    nodes.push(e);
    levels.push(1);
    int max = 0;
    while (!nodes.isEmpty()) {
      Expr n = nodes.pop();
      int level = levels.pop();
      max = Math.max(max, level);
      if (n instanceof BinaryExpr) {
        BinaryExpr b = (BinaryExpr) n;
        nodes.push(b.lhs());
        levels.push(level);
        nodes.push(b.rhs());
        levels.push(level + 1);
        continue;
      }
      for (Expr c : Children.of(n)) {
        nodes.push(c);
        levels.push(level + 1);
      }
    }
    return max;
  }

  /**
   * Runs recursive work over a tree {@code depth} levels deep: on the caller's thread when it is
   * shallow, else on a new thread whose stack holds that many levels, which the caller waits for.
   * What {@code work} throws is rethrown as it is; an interrupt of the caller is kept for it and
   * does not stop the work (queries stop through their own deadline and cancel flag).
   *
   * @throws IllegalArgumentException when {@code depth} exceeds {@link #MAX_DEPTH}
   */
  public static <T> T call(int depth, Supplier<T> work) {
    if (depth <= INLINE_DEPTH) {
      return work.get();
    }
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(tooDeep(depth));
    }
    return onOwnStack(depth, work);
  }

  static String tooDeep(int depth) {
    return depth > MAX_DEPTH + 1
        ? "expression nested too deeply (" + depth + " levels, at most " + MAX_DEPTH + ")"
        : "expression nested too deeply (more than " + MAX_DEPTH + " levels)";
  }

  /** Runs {@code work} on a thread with a stack for {@code depth} levels. */
  static <T> T onOwnStack(int depth, Supplier<T> work) {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable r =
        () -> {
          try {
            result.set(work.get());
          } catch (Throwable t) {
            failure.set(t);
          }
        };
    Thread t = new Thread(null, r, "promql-deep", BASE_STACK + depth * BYTES_PER_LEVEL);
    t.setDaemon(true);
    t.start();
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    Throwable f = failure.get();
    if (f instanceof RuntimeException) {
      throw (RuntimeException) f;
    }
    if (f instanceof Error) {
      throw (Error) f;
    }
    if (f != null) {
      throw new IllegalStateException(f);
    }
    return result.get();
  }
}
