package dev.infermon.discovery.file;

import dev.infermon.config.scrape.FileSdConfig;
import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.TargetSink;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code file_sd_configs}: reads the files matching the configured globs (the glob may only be in
 * the file name, as in Prometheus), watches their directories with a {@link WatchService}, and
 * re-reads everything every refresh interval as well, since watches miss events on some file
 * systems (NFS, some container mounts).
 *
 * <p>A file that cannot be read or parsed is logged with its name and the reason, and its previous
 * targets are kept; a file that disappears removes its targets. Groups are sent only when they
 * changed.
 */
public final class FileDiscoverer implements Discoverer {
  private static final Logger log = LoggerFactory.getLogger(FileDiscoverer.class);

  private final List<String> patterns;
  private final long refreshMs;
  private volatile boolean stopped;
  private volatile WatchService watcher;
  // The groups last sent, by file; guarded by the run thread (only it touches them).
  private final Map<Path, List<TargetGroup>> lastGroups = new HashMap<>();

  /** A provider for one {@code file_sd_configs} entry. */
  public FileDiscoverer(FileSdConfig config) {
    this.patterns = List.copyOf(config.files());
    long ms = config.refreshInterval().toMillis();
    if (ms <= 0) {
      throw new IllegalArgumentException(
          "file_sd refresh interval must be positive: " + config.refreshInterval());
    }
    this.refreshMs = ms;
  }

  @Override
  public void run(TargetSink sink) {
    try (WatchService ws = FileSystems.getDefault().newWatchService()) {
      watcher = ws;
      if (stopped) {
        return;
      }
      for (Path dir : directories()) {
        try {
          dir.register(
              ws,
              StandardWatchEventKinds.ENTRY_CREATE,
              StandardWatchEventKinds.ENTRY_MODIFY,
              StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException e) {
          log.warn(
              "cannot watch directory {}: {}; relying on the periodic refresh", dir, e.toString());
        }
      }
      refresh(sink, true);
      long nextRefresh = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(refreshMs);
      while (!stopped) {
        long waitNs = nextRefresh - System.nanoTime();
        WatchKey key = waitNs > 0 ? ws.poll(waitNs, TimeUnit.NANOSECONDS) : null;
        if (key != null) {
          key.pollEvents();
          key.reset();
          // Editors write in several steps; let them finish before reading.
          Thread.sleep(50);
          WatchKey more;
          while ((more = ws.poll()) != null) {
            more.pollEvents();
            more.reset();
          }
        } else {
          nextRefresh = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(refreshMs);
        }
        if (!stopped) {
          refresh(sink, false);
        }
      }
    } catch (ClosedWatchServiceException e) {
      // stopped
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      log.error("file discovery for {} cannot watch files: {}", patterns, e.toString());
    }
  }

  @Override
  public void stop() {
    stopped = true;
    WatchService ws = watcher;
    if (ws != null) {
      try {
        ws.close();
      } catch (IOException e) {
        log.debug("closing watch service", e);
      }
    }
  }

  private Set<Path> directories() {
    Set<Path> dirs = new LinkedHashSet<>();
    for (String p : patterns) {
      Path parent = Path.of(p).toAbsolutePath().getParent();
      if (parent != null && Files.isDirectory(parent)) {
        dirs.add(parent);
      }
    }
    return dirs;
  }

  /** The files matching the patterns now, sorted. */
  Set<Path> listFiles() {
    Set<Path> files = new TreeSet<>();
    for (String p : patterns) {
      Path pattern = Path.of(p);
      Path parent = pattern.toAbsolutePath().getParent();
      if (parent == null || !Files.isDirectory(parent)) {
        continue;
      }
      PathMatcher m =
          FileSystems.getDefault().getPathMatcher("glob:" + pattern.getFileName().toString());
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent)) {
        for (Path f : ds) {
          if (m.matches(f.getFileName()) && TargetFiles.isTargetFile(f) && Files.isRegularFile(f)) {
            // As written in the pattern (relative stays relative), like Go's filepath.Glob.
            Path written = pattern.getParent();
            files.add(written == null ? f.getFileName() : written.resolve(f.getFileName()));
          }
        }
      } catch (IOException e) {
        log.error("cannot list {}: {}", parent, e.toString());
      }
    }
    return files;
  }

  private void refresh(TargetSink sink, boolean first) {
    Set<Path> files = listFiles();
    List<TargetGroup> changed = new ArrayList<>();
    Map<Path, List<TargetGroup>> next = new HashMap<>();
    for (Path f : files) {
      try {
        List<TargetGroup> gs = TargetFiles.read(f);
        next.put(f, gs);
        List<TargetGroup> before = lastGroups.getOrDefault(f, List.of());
        if (!gs.equals(before)) {
          changed.addAll(gs);
          for (int i = gs.size(); i < before.size(); i++) {
            changed.add(TargetGroup.empty(before.get(i).source()));
          }
        }
      } catch (NoSuchFileException e) {
        // Deleted between listing and reading: handled as gone below.
      } catch (IOException | RuntimeException e) {
        log.error(
            "error reading file_sd file {}: {}; keeping its previous targets", f, e.getMessage());
        next.put(f, lastGroups.getOrDefault(f, List.of()));
      }
    }
    for (Map.Entry<Path, List<TargetGroup>> e : lastGroups.entrySet()) {
      if (!next.containsKey(e.getKey())) {
        for (TargetGroup g : e.getValue()) {
          changed.add(TargetGroup.empty(g.source()));
        }
      }
    }
    lastGroups.clear();
    lastGroups.putAll(next);
    if (first || !changed.isEmpty()) {
      sink.update(changed);
    }
  }
}
