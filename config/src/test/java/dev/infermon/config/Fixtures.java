package dev.infermon.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Test helpers: classpath fixtures and files of the project (docs/). */
final class Fixtures {
  private Fixtures() {}

  static String resource(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Config parse(String yaml) throws ConfigException {
    return ConfigLoader.create().parse(yaml, "infermon.yml");
  }

  /** A file of the project, found from the module directory the tests run in. */
  static Optional<Path> projectFile(String relative) {
    Path dir = Path.of("").toAbsolutePath();
    for (int i = 0; i < 3 && dir != null; i++) {
      Path p = dir.resolve(relative);
      if (Files.isRegularFile(p)) {
        return Optional.of(p);
      }
      dir = dir.getParent();
    }
    return Optional.empty();
  }
}
