package dev.infermon.storage.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted for a test, so a full disk is real. Needs root and a container that allows
 * mounts; {@link #mount} says why when it cannot, and the caller skips.
 */
public final class TmpfsMount implements AutoCloseable {
  public final Path dir;

  private TmpfsMount(Path dir) {
    this.dir = dir;
  }

  /** Mounts a tmpfs of {@code size} (as mount's size=, e.g. "2m") on {@code dir}. */
  public static TmpfsMount mount(Path dir, String size) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    String out = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
    if (out != null) {
      throw new IOException("cannot mount a tmpfs on " + dir + ": " + out);
    }
    return new TmpfsMount(dir);
  }

  @Override
  public void close() throws IOException {
    String out;
    try {
      // Lazily: memory maps of a closed database go only when the collector frees their buffers.
      out = run("umount", "-l", dir.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      out = "interrupted";
    }
    if (out != null) {
      throw new IOException("cannot unmount " + dir + ": " + out);
    }
  }

  /** Runs a command; null when it succeeded, else its output and exit code. */
  private static String run(String... cmd) throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.getMessage();
    }
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return String.join(" ", cmd) + " did not finish in 30 s";
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    return p.exitValue() == 0 ? null : out + " (exit " + p.exitValue() + ")";
  }
}
