package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.StorageConfig;
import dev.infermon.promql.QueryBackend;
import dev.infermon.remote.agent.AgentStorage;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.remote.write.RemoteWrite;
import dev.infermon.storage.Fanout;
import dev.infermon.storage.Storage;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The beyond-one-machine part of the storage stack, by {@code storage.mode}: the remote-write
 * queues behind a fanout over the local storage (the TSDB when embedded, {@link AgentStorage} in
 * remote and agent mode), and in remote mode the {@link RemoteQueryBackend} that answers queries.
 *
 * <p>Owns the queues: {@link #close()} flushes them (bounded) and stops them. The local storage
 * stays its creator's. Thread-safe once built.
 */
final class RemoteStorage implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RemoteStorage.class);

  /** How long shutdown waits for queued samples to reach their receivers. */
  static final Duration FLUSH_DEADLINE = Duration.ofSeconds(30);

  private final RemoteWrite remoteWrite;
  private final Storage storage;
  private final Optional<QueryBackend> remoteQueries;

  private RemoteStorage(
      RemoteWrite remoteWrite, Storage storage, Optional<QueryBackend> remoteQueries) {
    this.remoteWrite = remoteWrite;
    this.storage = storage;
    this.remoteQueries = remoteQueries;
  }

  /**
   * Starts the remote-write queues of {@code cfg} around {@code local} (null outside embedded mode:
   * an {@link AgentStorage} takes its place).
   *
   * @throws IllegalArgumentException when remote mode has no {@code storage.remote.query_url} or a
   *     queue's settings are invalid
   */
  static RemoteStorage start(Config cfg, Storage local, String version) {
    StorageConfig.Mode mode = cfg.storage().mode();
    String userAgent = "infermon/" + version;
    Optional<QueryBackend> queries =
        mode == StorageConfig.Mode.REMOTE
            ? Optional.of(RemoteQueryBackend.of(cfg.storage().remote(), userAgent))
            : Optional.empty();
    if (mode != StorageConfig.Mode.EMBEDDED && cfg.remoteWrite().isEmpty()) {
      log.warn("storage.mode {} without remote_write: scraped samples are not kept anywhere", mode);
    }
    Storage primary = local != null ? local : new AgentStorage();
    RemoteWrite rw = RemoteWrite.start(cfg.remoteWrite(), cfg.global().externalLabels(), userAgent);
    Storage storage = rw.isEmpty() ? primary : Fanout.of(primary, rw.queues());
    if (!rw.isEmpty()) {
      log.info("remote write to {}", rw);
    }
    return new RemoteStorage(rw, storage, queries);
  }

  /** What scraping and the remote-write receiver append to. */
  Storage storage() {
    return storage;
  }

  /** The queues, for metrics. */
  RemoteWrite remoteWrite() {
    return remoteWrite;
  }

  /** The remote query API in remote mode; empty otherwise. */
  Optional<QueryBackend> remoteQueries() {
    return remoteQueries;
  }

  @Override
  public void close() {
    remoteWrite.close(FLUSH_DEADLINE);
  }
}
