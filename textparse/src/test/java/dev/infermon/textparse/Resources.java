package dev.infermon.textparse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Test resources of this module, read from the classpath or (for regeneration) the source tree. */
final class Resources {
  private Resources() {}

  static byte[] bytes(String path) {
    try (InputStream in = Resources.class.getResourceAsStream("/" + path)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String string(String path) {
    return new String(bytes(path), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The module's src/test/resources directory (surefire runs in the module directory). */
  static Path sourceDir() {
    return Paths.get(System.getProperty("basedir", ".")).resolve("src/test/resources");
  }

  static boolean exists(String path) {
    return Resources.class.getResource("/" + path) != null;
  }

  static void write(String path, String content) {
    try {
      Path p = sourceDir().resolve(path);
      Files.createDirectories(p.getParent());
      Files.writeString(p, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
