package dev.infermon.llm.diagnosis;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.Children;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.parser.VectorSelector;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.LongFunction;

/**
 * The cause of an active alert, from the diagnosis of the {@link DiagnosisService#DEFAULT_WINDOW}
 * up to the alert's evaluation. Which alerts: those whose labels name a {@code model_name} or a
 * {@code pod} and whose expression reads a family the catalog knows (the default pack's three, and
 * a user's rule over engine metrics alike). The finding named is, on the alert's namespace, model
 * and (when the alert has one) pod: for a pack alert, one that explains the alert's symptom; for
 * another alert, any; a state before {@code cause-not-found}, earlier states of the causal chain
 * ({@link State}'s order) first.
 *
 * <p>Cost: one diagnosis per evaluation time, shared by every alert evaluated at that time (a few
 * evaluation times are kept, so the groups of one minute share theirs too).
 *
 * <p>Threading: thread-safe. The cache's lock is held only to find or enter an evaluation time's
 * pending diagnosis, never while one runs: the first caller for a time runs it on its own thread,
 * callers for the same time wait for that one rather than run their own, and callers for other
 * times (groups evaluated at other seconds) run theirs at once. A diagnosis that fails is not kept,
 * so the next evaluation tries again.
 */
final class AlertCauses {
  /** The default pack's alerts (export.AlertPack's names; a test holds them equal). */
  static final Map<String, Symptom> PACK =
      Map.of(
          "LLMTimeToFirstTokenHigh", Symptom.TTFT_HIGH,
          "LLMRequestsQueuedWhilePreempting", Symptom.QUEUED_WHILE_PREEMPTING,
          "LLMRequestFailuresHigh", Symptom.FAILURES_HIGH);

  /** Evaluation times whose diagnosis is kept. */
  static final int CACHED = 4;

  private final Catalog catalog;
  private final LongFunction<Diagnosis> diagnose;

  /** Guarded by itself; a pending entry is replaced by nothing else than its own outcome. */
  private final Map<Long, FutureTask<Diagnosis>> cache =
      new LinkedHashMap<>(CACHED * 2, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, FutureTask<Diagnosis>> e) {
          return size() > CACHED;
        }
      };

  /** {@code diagnose} gives the diagnosis of the default window ending at its argument (ms). */
  AlertCauses(Catalog catalog, LongFunction<Diagnosis> diagnose) {
    this.catalog = catalog;
    this.diagnose = diagnose;
  }

  /**
   * The cause of the alert, or empty when it is not one diagnosis speaks to.
   *
   * @throws dev.infermon.promql.QueryException when the diagnosis's queries fail
   */
  Optional<AlertCause> causeOf(
      String alertName, String expr, Map<String, String> labels, long activeAtMs, long evalMs) {
    String model = labels.getOrDefault("model_name", "");
    String pod = labels.getOrDefault("pod", "");
    if ((model.isEmpty() && pod.isEmpty()) || !readsCatalogFamily(expr)) {
      return Optional.empty();
    }
    String namespace = labels.getOrDefault("namespace", "");
    List<Finding> matching = matching(diagnosis(evalMs), alertName, labels);
    long from = Math.min(activeAtMs, evalMs - DiagnosisService.DEFAULT_WINDOW_MS);
    String link = dashboard(namespace, model, pod, from, evalMs);
    String incident = incident(alertName, labels);
    if (matching.isEmpty()) {
      return Optional.of(
          new AlertCause("", seesNothing(alertName, labels), List.of(), link, incident));
    }
    Finding first = matching.get(0);
    return Optional.of(
        new AlertCause(
            first.state().id(), line(first, matching), first.evidence(), link, incident));
  }

  /**
   * The findings of {@code d} that speak to the alert: on its namespace, model and (when it has
   * one) pod; for a pack alert, those that explain its symptom. Earlier states of the causal chain
   * first, {@code cause-not-found} last.
   */
  static List<Finding> matching(Diagnosis d, String alertName, Map<String, String> labels) {
    String model = labels.getOrDefault("model_name", "");
    String pod = labels.getOrDefault("pod", "");
    String namespace = labels.getOrDefault("namespace", "");
    Symptom symptom = PACK.get(alertName);
    List<Finding> matching = new ArrayList<>();
    for (Finding f : d.findings()) {
      boolean place =
          (model.isEmpty() || f.model().equals(model))
              && (namespace.isEmpty() || f.namespace().equals(namespace))
              && (pod.isEmpty() || f.pod().isEmpty() || f.pod().equals(pod));
      if (place && (symptom == null || f.symptoms().contains(symptom))) {
        matching.add(f);
      }
    }
    matching.sort((a, b) -> Integer.compare(rank(a.state()), rank(b.state())));
    return matching;
  }

  /**
   * The diagnosis at {@code evalMs}: the kept one, the one another thread is running (waited for),
   * or one run here, outside the lock.
   *
   * @throws DiagnosisInterruptedException when the thread is interrupted while waiting (the rule
   *     group's annotator budget ran out)
   */
  private Diagnosis diagnosis(long evalMs) {
    FutureTask<Diagnosis> task;
    boolean mine = false;
    synchronized (cache) {
      task = cache.get(evalMs);
      if (task == null) {
        task = new FutureTask<>(() -> diagnose.apply(evalMs));
        cache.put(evalMs, task);
        mine = true;
      }
    }
    if (mine) {
      task.run();
    }
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DiagnosisInterruptedException(evalMs);
    } catch (ExecutionException e) {
      forget(evalMs, task);
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException("diagnosis at " + evalMs + " failed", cause);
    }
  }

  /** Drops a failed diagnosis, unless a later one has taken its place already. */
  private void forget(long evalMs, FutureTask<Diagnosis> failed) {
    synchronized (cache) {
      cache.remove(evalMs, failed);
    }
  }

  /** Waiting for a diagnosis another thread runs was interrupted. */
  static final class DiagnosisInterruptedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DiagnosisInterruptedException(long evalMs) {
      super("interrupted while waiting for the diagnosis at " + evalMs);
    }
  }

  /** The states' order, cause-not-found last. */
  private static int rank(State s) {
    return s == State.CAUSE_NOT_FOUND ? Integer.MAX_VALUE : s.ordinal();
  }

  /**
   * {@code kv-pressure on pod-0: <summary>; also saturated (2 pods), pd-bottleneck (model)}: the
   * finding named, where, and the other states that explain the same symptom there.
   */
  static String line(Finding first, List<Finding> all) {
    Map<State, int[]> others = new EnumMap<>(State.class);
    for (Finding f : all) {
      if (f.state() != first.state()) {
        // [pods, model-level findings]
        others.computeIfAbsent(f.state(), s -> new int[2])[f.pod().isEmpty() ? 1 : 0]++;
      }
    }
    StringBuilder b =
        new StringBuilder(first.state().id())
            .append(" on ")
            .append(first.pod().isEmpty() ? "the model" : first.pod())
            .append(": ")
            .append(first.summary());
    if (!others.isEmpty()) {
      List<String> parts = new ArrayList<>();
      others.forEach(
          (s, n) -> {
            List<String> on = new ArrayList<>();
            if (n[1] > 0) {
              on.add("model");
            }
            if (n[0] > 0) {
              on.add(n[0] + (n[0] == 1 ? " pod" : " pods"));
            }
            parts.add(s.id() + " (" + String.join(", ", on) + ")");
          });
      b.append("; also ").append(String.join(", ", parts));
    }
    return b.toString().replace('\n', ' ');
  }

  /** The line for an alert no finding speaks to: diagnosis does not see its symptom there. */
  static String seesNothing(String alertName, Map<String, String> labels) {
    Symptom symptom = PACK.get(alertName);
    String what = symptom == null ? "no state" : "no " + symptom.id();
    return "diagnosis sees "
        + what
        + " on "
        + where(
            labels.getOrDefault("namespace", ""),
            labels.getOrDefault("model_name", ""),
            labels.getOrDefault("pod", ""))
        + " over the last "
        + DiagnosisService.DEFAULT_WINDOW;
  }

  private static String where(String namespace, String model, String pod) {
    String w = pod.isEmpty() ? model : pod + (model.isEmpty() ? "" : " (" + model + ")");
    return namespace.isEmpty() ? w : namespace + "/" + w;
  }

  /**
   * The dashboard filtered to the namespace and model, at the pod level when the alert names a pod
   * (the dashboard has no pod filter), over {@code [fromMs, toMs]}.
   */
  static String dashboard(String namespace, String model, String pod, long fromMs, long toMs) {
    StringBuilder b = new StringBuilder("/dashboard?");
    if (!namespace.isEmpty()) {
      b.append("namespace=").append(enc(namespace)).append('&');
    }
    if (!model.isEmpty()) {
      b.append("model=").append(enc(model)).append('&');
    }
    if (!pod.isEmpty()) {
      b.append("level=pod&");
    }
    return b.append("from=").append(fromMs).append("&to=").append(toMs).toString();
  }

  /**
   * The incident page of the alert: {@code /incident?alert=} and its labels as a selector, {@code
   * Name{a="x", b="y"}} (labels sorted, {@code alertname} as the name), URL-encoded: what the UI's
   * alerts page links to and {@code /api/v1/llm/incident} takes.
   */
  static String incident(String alertName, Map<String, String> labels) {
    StringBuilder b = new StringBuilder(alertName).append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(labels).entrySet()) {
      if (e.getKey().equals("alertname")) {
        continue;
      }
      b.append(first ? "" : ", ").append(e.getKey()).append("=\"");
      Labels.escapeInto(b, e.getValue());
      b.append('"');
      first = false;
    }
    return "/incident?alert=" + enc(b.append('}').toString()).replace("+", "%20");
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Whether {@code expr} selects a sample name of an engine the catalog knows. */
  boolean readsCatalogFamily(String expr) {
    Expr root;
    try {
      root = PromqlParser.parse(expr);
    } catch (ParseException e) {
      return false;
    }
    Deque<Expr> todo = new ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      Expr e = todo.pop();
      if (e instanceof VectorSelector) {
        String name = ((VectorSelector) e).name();
        for (EngineCatalog c : catalog.engines()) {
          if (name != null && c.familyOfSample(name).isPresent()) {
            return true;
          }
        }
      }
      todo.addAll(Children.of(e));
    }
    return false;
  }
}
