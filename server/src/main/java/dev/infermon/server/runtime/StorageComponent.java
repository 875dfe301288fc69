package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.StorageConfig;
import dev.infermon.config.value.ByteSize;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded TSDB, by the {@code storage} section and the {@code --storage.tsdb.*} flags (a given
 * flag wins); none in remote and agent mode, which keep no local samples (docs/deployment.md).
 *
 * <p>Reload: the retention ({@code storage.tsdb.retention}) applies from the next compaction pass;
 * {@code storage.mode}, {@code storage.tsdb.path}, {@code
 * storage.tsdb.too_far_in_future_time_window} and, in remote mode, {@code storage.remote} are fixed
 * at start and refused.
 */
final class StorageComponent implements Component {
  private static final Logger log = LoggerFactory.getLogger(StorageComponent.class);
  private final ServeSettings settings;
  private volatile Tsdb tsdb;

  StorageComponent(ServeSettings settings) {
    this.settings = settings;
  }

  private volatile Tsdb rollups;

  @Override
  public String name() {
    return "storage";
  }

  @Override
  public void start(Config cfg) throws IOException {
    if (cfg.storage().mode() != StorageConfig.Mode.EMBEDDED) {
      return;
    }
    TsdbOptions opts =
        TsdbOptions.defaults()
            .withRetentionTime(retentionTime(cfg))
            .withRetentionBytes(retentionSize(cfg).bytes())
            .withFutureWindow(cfg.storage().tsdb().tooFarInFutureTimeWindow());
    Tsdb db = Tsdb.open(path(cfg), opts);
    if (!db.startupProblems().isEmpty()) {
      log.warn("data was skipped at start-up (also on /-/ready): {}", db.startupProblems());
    }
    tsdb = db;
    if (cfg.llm().dashboard().rollups()) {
      // the dashboard's stored answers: a TSDB of its own (its appendable window follows its own
      // newest step, so the catch-up can write hours back), inside the data directory; the time
      // retention only (a size bound is the main TSDB's)
      rollups = Tsdb.open(path(cfg).resolve("rollups"), opts.withRetentionBytes(0));
    }
  }

  /** The store of the dashboard's answers ({@code llm.dashboard.rollups}); null when off. */
  Tsdb rollups() {
    return rollups;
  }

  @Override
  public void stop() {
    Tsdb db = tsdb;
    tsdb = null;
    Tsdb r = rollups;
    rollups = null;
    if (r != null) {
      r.close();
    }
    if (db != null) {
      db.close();
    }
  }

  @Override
  public Change prepare(Config current, Config next) throws Refused {
    StorageConfig c = current.storage();
    StorageConfig n = next.storage();
    if (c.mode() != n.mode()) {
      throw new Refused("storage.mode", "the storage is opened at start");
    }
    if (!current.llm().dashboard().equals(next.llm().dashboard())) {
      throw new Refused("llm.dashboard.rollups", "the rollups' store is opened at start");
    }
    if (!path(current).equals(path(next))) {
      throw new Refused("storage.tsdb.path", "the data directory is locked at start");
    }
    if (!c.tsdb().tooFarInFutureTimeWindow().equals(n.tsdb().tooFarInFutureTimeWindow())) {
      throw new Refused(
          "storage.tsdb.too_far_in_future_time_window", "the future window is set at start");
    }
    if (c.mode() == StorageConfig.Mode.REMOTE && !c.remote().equals(n.remote())) {
      throw new Refused("storage.remote", "the remote query backend is built at start");
    }
    Duration time = retentionTime(next);
    ByteSize size = retentionSize(next);
    Tsdb db = tsdb;
    if (db == null
        || (time.equals(retentionTime(current)) && size.equals(retentionSize(current)))) {
      return Change.NONE;
    }
    Tsdb r = rollups;
    return () -> {
      db.setRetention(time, size.bytes());
      if (r != null) {
        r.setRetention(time, 0);
      }
    };
  }

  /** The database; null outside embedded mode, before start and after stop. */
  Tsdb tsdb() {
    return tsdb;
  }

  private Path path(Config cfg) {
    return settings.tsdbPath().orElse(Path.of(cfg.storage().tsdb().path()));
  }

  private Duration retentionTime(Config cfg) {
    return settings.retentionTime().orElse(cfg.storage().tsdb().retention().time());
  }

  private ByteSize retentionSize(Config cfg) {
    return settings.retentionSize().orElse(cfg.storage().tsdb().retention().size());
  }
}
