package dev.infermon.promql.backend;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.value.Annotation;
import dev.infermon.storage.Backfill;
import dev.infermon.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Stored answers of range queries ("rollups"): for each query text of a set (a dashboard's default
 * queries), its value at every step of an epoch-aligned grid ({@code t % interval == 0}), kept in a
 * storage of its own as series, so that a range query on that grid reads the answer instead of
 * evaluating hours of raw samples. What recording rules are to a Prometheus user, kept by the
 * product for its own queries, and exact: {@link RollupBackend} answers what the engine would.
 *
 * <p>The store's schema (one storage holds nothing else):
 *
 * <ul>
 *   <li>{@value #SERIES}{@code {__rollup_query__="<id>", ...}}: a result series of the query, its
 *       own labels kept, its {@code __name__} (if it has one) in {@code __rollup_name__};
 *   <li>{@value #STEPS}{@code {__rollup_query__="<id>"}}: 1 at every step whose answer is stored,
 *       so that an empty answer is told from a step not written (a gap, the tail);
 *   <li>{@value #NOTES}{@code {__rollup_query__="<id>", severity="info|warning", message="..."}}: 1
 *       at every stored step whose evaluation had that annotation;
 *   <li>{@value #REVOKED}: a sample at {@code t} of value {@code v} takes back every step in {@code
 *       [v, t]}: samples were committed at or below them after they were evaluated (a late sender),
 *       and stored samples cannot be replaced, so those steps are evaluated raw from then on.
 * </ul>
 *
 * The id is the first 16 hex digits of the SHA-256 of the text. Holds the set of texts the writer
 * keeps ({@link #setQueries}); the reader answers only for them.
 *
 * <p>Threading: thread-safe; the set is replaced whole.
 */
public final class Rollups {
  /** The metric name of the stored answers. */
  public static final String SERIES = "infermon_rollup";

  /** The metric name of the steps stored per query. */
  public static final String STEPS = "infermon_rollup_steps";

  /** The metric name of the annotations of a step. */
  public static final String NOTES = "infermon_rollup_note";

  /** The metric name of the steps taken back. */
  public static final String REVOKED = "infermon_rollup_revoked";

  static final String QUERY = "__rollup_query__";
  static final String NAME = "__rollup_name__";
  static final String SEVERITY = "severity";
  static final String MESSAGE = "message";

  private final Storage store;
  private final long intervalMs;
  private volatile Map<String, String> ids = Map.of();
  private volatile Unverified unverified;

  /**
   * What the writer has not checked for late commits yet: the storage's mark read before its last
   * evaluation and the bound of final samples then (every commit since was at or after it). The
   * reader takes back the steps at or after the lowest sample committed since, itself, so that no
   * stored step is read stale between the late commit and the writer's next check.
   */
  record Unverified(long mark, long boundMs) {}

  /**
   * @param store where the answers are kept; never the storage the queries read (the writer would
   *     take its own commits for late samples)
   * @param intervalMs the grid: the scrape interval
   * @throws IllegalArgumentException for a null store or an interval under 1 s
   */
  public Rollups(Storage store, long intervalMs) {
    if (store == null || intervalMs < 1000) {
      throw new IllegalArgumentException(
          "rollups need a store and an interval of at least 1 s, got " + intervalMs + " ms");
    }
    this.store = store;
    this.intervalMs = intervalMs;
  }

  /** The grid's interval. */
  public long intervalMs() {
    return intervalMs;
  }

  Storage store() {
    return store;
  }

  /** The store's way to take steps older than its appendable window, when it has one. */
  Optional<Backfill> backfill() {
    return store instanceof Backfill b ? Optional.of(b) : Optional.empty();
  }

  /**
   * The texts kept from now on: those that can be kept ({@link CachingBackend#cacheable}: no
   * {@code @}, no negative offset). The caller leaves out texts that depend on the step.
   */
  public void setQueries(Collection<String> texts) {
    Map<String, String> m = new HashMap<>();
    for (String t : texts) {
      if (CachingBackend.cacheable(t)) {
        m.put(t, id(t));
      }
    }
    ids = Map.copyOf(m);
  }

  void unverified(long mark, long boundMs) {
    unverified = new Unverified(mark, boundMs);
  }

  /** Null before the writer's first evaluation. */
  Unverified unverified() {
    return unverified;
  }

  /** The texts kept and their ids. */
  public Map<String, String> queries() {
    return ids;
  }

  /** The id of {@code text} when it is kept, else null. */
  String idOf(String text) {
    return ids.get(text);
  }

  /** The id of a query text. */
  static String id(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder sb = new StringBuilder(16);
      for (int i = 0; i < 8; i++) {
        sb.append(Character.forDigit((d[i] >> 4) & 0xf, 16))
            .append(Character.forDigit(d[i] & 0xf, 16));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }

  /** The stored labels of a result series of query {@code id}. */
  static Labels stored(Labels result, String id) {
    Labels.Builder b = result.toBuilder();
    String name = result.get(Labels.METRIC_NAME);
    if (!name.isEmpty()) {
      b.set(NAME, name);
    }
    return b.set(Labels.METRIC_NAME, SERIES).set(QUERY, id).build();
  }

  /** The result series' labels back from the stored ones. */
  static Labels restored(Labels stored) {
    Labels.Builder b = stored.toBuilder().del(QUERY).del(Labels.METRIC_NAME);
    String name = stored.get(NAME);
    if (!name.isEmpty()) {
      b.del(NAME).set(Labels.METRIC_NAME, name);
    }
    return b.build();
  }

  /** The marker series of query {@code id}. */
  static Labels steps(String id) {
    return Labels.of(Labels.METRIC_NAME, STEPS, QUERY, id);
  }

  /** The series of one annotation of query {@code id}. */
  static Labels note(String id, Annotation a) {
    return Labels.of(
        Labels.METRIC_NAME, NOTES, QUERY, id, SEVERITY, a.severity().name(), MESSAGE, a.message());
  }

  /** The annotation a note series stands for. */
  static Annotation annotation(Labels note) {
    return new Annotation(Annotation.Severity.valueOf(note.get(SEVERITY)), note.get(MESSAGE));
  }

  static Labels revoked() {
    return Labels.of(Labels.METRIC_NAME, REVOKED);
  }

  /** The first grid time at or after {@code t}. */
  long ceil(long t) {
    return Math.floorDiv(t + intervalMs - 1, intervalMs) * intervalMs;
  }

  /** The last grid time at or before {@code t}. */
  long floor(long t) {
    return Math.floorDiv(t, intervalMs) * intervalMs;
  }
}
