package dev.infermon.tsdb.fileutil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** Static helpers for durable file operations. Thread-safe (stateless). */
public final class FileUtil {
  private FileUtil() {}

  /**
   * Flushes a directory's entries (creations, renames, deletions) to stable storage. Without it a
   * rename can be lost on power failure even though the renamed file's bytes were synced.
   */
  public static void fsyncDir(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems refuse to open or sync a directory; the data files themselves are synced.
      if (!Files.isDirectory(dir)) {
        throw e;
      }
    }
  }

  /** Syncs every regular file under {@code dir} (recursively) and the directories themselves. */
  public static void fsyncTree(Path dir) throws IOException {
    for (Path p : list(dir)) {
      if (Files.isDirectory(p)) {
        fsyncTree(p);
      } else {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
          ch.force(true);
        }
      }
    }
    fsyncDir(dir);
  }

  /**
   * Publishes a fully written directory (or file) under its final name: syncs it, renames it
   * atomically (replacing nothing), then syncs the parent so the new name survives power loss.
   */
  public static void publish(Path tmp, Path dst) throws IOException {
    if (Files.isDirectory(tmp)) {
      fsyncTree(tmp);
    }
    try {
      Files.move(tmp, dst, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("file system cannot rename atomically: " + tmp + " -> " + dst, e);
    }
    fsyncDir(dst.getParent());
  }

  /** Deletes a file or a directory tree; missing is fine. */
  public static void deleteRecursively(Path p) throws IOException {
    if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      for (Path c : list(p)) {
        deleteRecursively(c);
      }
    }
    try {
      Files.deleteIfExists(p);
    } catch (NoSuchFileException e) {
      // raced with another delete: the goal is reached
    }
  }

  /** Total bytes of regular files under {@code p} (0 when missing). */
  public static long size(Path p) {
    try {
      if (!Files.exists(p)) {
        return 0;
      }
      if (!Files.isDirectory(p)) {
        return Files.size(p);
      }
      long total = 0;
      for (Path c : list(p)) {
        total += size(c);
      }
      return total;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The entries of a directory, sorted by name. */
  public static List<Path> list(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        out.add(p);
      }
    }
    out.sort(null);
    return out;
  }
}
