package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A group's calls of its {@link AlertAnnotator}: one evaluation's alerts are annotated in turn on a
 * thread of their own, joined for at most the budget, so that a slow or failing annotator costs the
 * group at most the budget and never its rules. A thread per evaluation that has active alerts
 * (rather than a pool) keeps the group free of anything to close; evaluations are minutes apart.
 *
 * <p>Threading: used by the group's evaluation thread; the error it last logged is shared state,
 * guarded by {@code this}.
 */
final class AnnotatorCalls {
  private static final Logger log = LoggerFactory.getLogger(AnnotatorCalls.class);

  private final AlertAnnotator annotator;
  private final long budgetMs;
  private final String group;
  private String lastError = "";

  AnnotatorCalls(AlertAnnotator annotator, long budgetMs, String group) {
    if (annotator == null || budgetMs <= 0) {
      throw new IllegalArgumentException(
          "an annotator and a positive budget are required, got " + budgetMs + " ms");
    }
    this.annotator = annotator;
    this.budgetMs = budgetMs;
    this.group = group;
  }

  /**
   * The annotations of each subject, in order: each result as {@link Labels}, {@link Labels#EMPTY}
   * for a subject whose call failed or was not reached within the budget.
   */
  List<Labels> annotate(List<AlertAnnotator.Subject> subjects) {
    List<Labels> out = new ArrayList<>(subjects.size());
    if (annotator == AlertAnnotator.NONE || subjects.isEmpty()) {
      subjects.forEach(s -> out.add(Labels.EMPTY));
      return out;
    }
    AtomicReferenceArray<Labels> got = new AtomicReferenceArray<>(subjects.size());
    AtomicBoolean closed = new AtomicBoolean();
    Thread t = new Thread(() -> callAll(subjects, got, closed), "alert-annotator");
    t.setDaemon(true);
    t.start();
    try {
      t.join(budgetMs);
    } catch (InterruptedException e) {
      t.interrupt();
      Thread.currentThread().interrupt();
    }
    if (t.isAlive()) {
      // what returns from now on comes after the budget: it is dropped, not used
      closed.set(true);
      t.interrupt();
      error("annotating alerts took longer than " + budgetMs + " ms; the rest go without");
    }
    for (int i = 0; i < subjects.size(); i++) {
      Labels l = got.get(i);
      out.add(l == null ? Labels.EMPTY : l);
    }
    return out;
  }

  private void callAll(
      List<AlertAnnotator.Subject> subjects,
      AtomicReferenceArray<Labels> got,
      AtomicBoolean closed) {
    for (int i = 0; i < subjects.size() && !closed.get(); i++) {
      AlertAnnotator.Subject s = subjects.get(i);
      try {
        Map<String, String> m = annotator.annotations(s);
        if (closed.get()) {
          return;
        }
        got.set(i, m == null ? Labels.EMPTY : Labels.fromMap(m));
        ok();
      } catch (RuntimeException | StackOverflowError e) {
        got.set(i, Labels.EMPTY);
        error("annotating " + s.alertName() + " " + s.labels() + " failed: " + e);
      }
    }
  }

  private synchronized void ok() {
    lastError = "";
  }

  /** Logs {@code error} unless it is the one logged last: a broken annotator logs once. */
  private synchronized void error(String error) {
    if (!error.equals(lastError)) {
      log.warn("Alert annotations: group={} {}", group, error);
      lastError = error;
    }
  }
}
