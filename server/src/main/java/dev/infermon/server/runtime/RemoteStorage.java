package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.StorageConfig;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.QueryBackend;
import dev.infermon.remote.agent.AgentStorage;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.remote.write.RemoteWrite;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Fanout;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Storage;
import dev.infermon.tsdb.Tsdb;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The beyond-one-machine part of the storage stack, by {@code storage.mode}: the remote-write
 * queues behind a fanout over the local storage (the TSDB when embedded, {@link AgentStorage} in
 * remote and agent mode), and in remote mode the {@link RemoteQueryBackend} that answers queries.
 *
 * <p>{@link #storage()} is what scraping, rules and the remote-write receiver append to, for the
 * whole run: its appenders come from the fanout of the queues of the moment, so a reload that
 * changes {@code remote_write} (or the external labels the queues add) starts the new queues, swaps
 * them in for the next transaction, and flushes the old ones for up to {@link #FLUSH_DEADLINE} in
 * the background. Without queues the appenders are the local storage's own, with no fanout.
 *
 * <p>Owns the queues: {@link #stop()} flushes them (bounded) and stops them. The local storage
 * stays the storage component's. Thread-safe once started.
 */
final class RemoteStorage implements Component {
  private static final Logger log = LoggerFactory.getLogger(RemoteStorage.class);

  /** How long shutdown waits for queued samples to reach their receivers. */
  static final Duration FLUSH_DEADLINE = Duration.ofSeconds(30);

  private final Supplier<Tsdb> local;
  private final String userAgent;
  private final Storage storage = new Current();
  private volatile Storage primary;
  private volatile Storage appending; // primary, or a fanout from it to the queues
  private volatile RemoteWrite remoteWrite;
  private volatile Optional<QueryBackend> remoteQueries = Optional.empty();

  /**
   * @param local the embedded TSDB once its component started; null outside embedded mode
   */
  RemoteStorage(Supplier<Tsdb> local, String version) {
    this.local = local;
    this.userAgent = "infermon/" + version;
  }

  @Override
  public String name() {
    return "remote-write";
  }

  /**
   * @throws IllegalArgumentException when remote mode has no {@code storage.remote.query_url} or a
   *     queue's settings are invalid
   */
  @Override
  public void start(Config cfg) {
    StorageConfig.Mode mode = cfg.storage().mode();
    remoteQueries =
        mode == StorageConfig.Mode.REMOTE
            ? Optional.of(RemoteQueryBackend.of(cfg.storage().remote(), userAgent))
            : Optional.empty();
    if (mode != StorageConfig.Mode.EMBEDDED && cfg.remoteWrite().isEmpty()) {
      log.warn("storage.mode {} without remote_write: scraped samples are not kept anywhere", mode);
    }
    Tsdb db = local.get();
    primary = db != null ? db : new AgentStorage();
    use(queues(cfg));
  }

  @Override
  public void stop() {
    RemoteWrite rw = remoteWrite;
    remoteWrite = null;
    if (rw != null) {
      rw.close(FLUSH_DEADLINE);
    }
  }

  @Override
  public Change prepare(Config current, Config next) {
    if (next.remoteWrite().equals(current.remoteWrite())
        && next.global().externalLabels().equals(current.global().externalLabels())) {
      return Change.NONE;
    }
    RemoteWrite started = queues(next); // the new queues run, idle, until applied
    return new Change() {
      @Override
      public void apply() {
        RemoteWrite old = remoteWrite;
        use(started);
        flushInBackground(old);
      }

      @Override
      public void abort() {
        started.close(Duration.ZERO);
      }
    };
  }

  private RemoteWrite queues(Config cfg) {
    return RemoteWrite.start(cfg.remoteWrite(), cfg.global().externalLabels(), userAgent);
  }

  private void use(RemoteWrite rw) {
    appending = rw.isEmpty() ? primary : Fanout.of(primary, rw.queues());
    remoteWrite = rw;
    if (!rw.isEmpty()) {
      log.info("remote write to {}", rw);
    }
  }

  private static void flushInBackground(RemoteWrite old) {
    if (old == null || old.isEmpty()) {
      return;
    }
    Thread t = new Thread(() -> old.close(FLUSH_DEADLINE), "remote-write-flush");
    t.setDaemon(true);
    t.start();
  }

  /** What scraping, rules and the remote-write receiver append to; null before start. */
  Storage storage() {
    return primary == null ? null : storage;
  }

  /** The queues, for metrics; null when stopped. */
  RemoteWrite remoteWrite() {
    return remoteWrite;
  }

  /** The remote query API in remote mode; empty otherwise. */
  Optional<QueryBackend> remoteQueries() {
    return remoteQueries;
  }

  /** The primary's reads and lifecycle, appenders of the fanout of the moment. */
  private final class Current implements Storage {
    @Override
    public Appender appender() {
      return appending.appender();
    }

    @Override
    public Querier querier() {
      return primary.querier();
    }

    @Override
    public Map<String, List<Metadata>> metadata(String metric) {
      return primary.metadata(metric);
    }

    @Override
    public long startTime() {
      return primary.startTime();
    }

    /** The primary belongs to the storage component (or, agent storage, to nobody). */
    @Override
    public void close() {}

    @Override
    public String toString() {
      return "storage(" + primary + ", " + remoteWrite + ")";
    }
  }
}
