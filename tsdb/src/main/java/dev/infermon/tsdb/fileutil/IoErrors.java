package dev.infermon.tsdb.fileutil;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Readable I/O error messages. The JDK's {@link FileSystemException}s often carry only a path as
 * their message ({@code /data/wal/00000005}), the reason being their type; these helpers name the
 * operation, the file and the reason the way the operating system would ("permission denied", "No
 * space left on device", "not a directory"). Stateless.
 */
public final class IoErrors {
  private IoErrors() {}

  /** The operating system's reason for {@code e}, without the path. */
  public static String reason(IOException e) {
    if (e instanceof FileSystemException) {
      FileSystemException f = (FileSystemException) e;
      if (f.getReason() != null && !f.getReason().isEmpty()) {
        return f.getReason();
      }
      if (e instanceof AccessDeniedException) {
        return "permission denied";
      }
      if (e instanceof NoSuchFileException) {
        return "no such file or directory";
      }
      if (e instanceof NotDirectoryException) {
        return "not a directory";
      }
      if (e instanceof FileAlreadyExistsException) {
        return "file exists";
      }
      if (e instanceof DirectoryNotEmptyException) {
        return "directory not empty";
      }
      if (e instanceof FileSystemLoopException) {
        return "too many levels of symbolic links";
      }
      return e.getClass().getSimpleName();
    }
    String m = e.getMessage();
    return m == null || m.isEmpty() ? e.getClass().getSimpleName() : m;
  }

  /**
   * The message of {@code e} for a log line or a fatal error: its own (for a file-system error that
   * carries only a path, the path and the reason), with its cause's reason when that adds one.
   */
  public static String message(Throwable e) {
    String m;
    if (e instanceof FileSystemException && ((FileSystemException) e).getReason() == null) {
      FileSystemException f = (FileSystemException) e;
      m =
          f.getFile()
              + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile())
              + ": "
              + reason(f);
    } else {
      m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
    Throwable c = e.getCause();
    if (c instanceof IOException) {
      String r = reason((IOException) c);
      if (!m.contains(r)) {
        m = m + ": " + r;
      }
    }
    return m;
  }

  /**
   * Creates {@code dir} and its parents; an error names {@code operation}, the directory and the
   * reason ("not a directory" when a file is in the way, where the JDK says only the path).
   */
  public static void createDirectories(String operation, Path dir) throws IOException {
    try {
      Files.createDirectories(dir);
    } catch (FileAlreadyExistsException e) {
      // Not the cause: its reason ("file exists") would only contradict the one given here.
      IOException x = new IOException(operation + " " + dir + ": not a directory");
      x.addSuppressed(e);
      throw x;
    } catch (IOException e) {
      throw describe(operation, dir, e);
    }
  }

  /**
   * An exception saying {@code "<operation> <path>: <reason>"} with {@code e} as its cause, e.g.
   * "cannot create the write-ahead log segment /data/wal/00000005: No space left on device".
   */
  public static IOException describe(String operation, Path path, IOException e) {
    return new IOException(operation + " " + path + ": " + reason(e), e);
  }
}
