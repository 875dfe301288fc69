package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.yaml.Section;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md documents every section and key of {@link ConfigSchema} (the same table the
 * mapper reads keys through) and every environment variable. Skips when docs/ is absent.
 */
class ConfigurationDocsTest {
  private static List<String> lines;

  @BeforeAll
  static void read() throws IOException {
    Path p = Fixtures.projectFile("docs/configuration.md").orElse(null);
    Assumptions.assumeTrue(p != null, "docs/configuration.md not found from the module dir");
    lines = Files.readAllLines(p);
  }

  @Test
  void everyKeyOfEverySectionHasARowUnderItsHeading() {
    List<String> missing = new ArrayList<>();
    for (Section s : ConfigSchema.ALL) {
      List<String> body = section(s.name());
      if (body == null) {
        missing.add("section " + s.name());
        continue;
      }
      for (String key : s.ownKeys()) {
        if (body.stream().noneMatch(l -> l.startsWith("| `" + key + "` |"))) {
          missing.add(s.name() + "." + key);
        }
      }
    }
    assertThat(missing).as("undocumented in docs/configuration.md").isEmpty();
  }

  @Test
  void everyDocumentedKeyExists() {
    List<String> unknown = new ArrayList<>();
    for (Section s : ConfigSchema.ALL) {
      List<String> body = section(s.name());
      if (body == null) {
        continue;
      }
      for (String l : body) {
        if (l.startsWith("| `") && !l.startsWith("| `INFERMON_")) {
          String key = l.substring(3, l.indexOf('`', 3));
          if (!s.ownKeys().contains(key)) {
            unknown.add(s.name() + "." + key);
          }
        }
      }
    }
    assertThat(unknown).as("documented but not in ConfigSchema").isEmpty();
  }

  @Test
  void everyEnvironmentVariableIsListed() {
    for (EnvOverrides.Var v : EnvOverrides.VARS) {
      assertThat(lines)
          .as(v.name())
          .anyMatch(l -> l.startsWith("| `" + v.name() + "` | `" + v.dottedPath() + "`"));
    }
  }

  /** The lines between the heading "### `name`" and the next heading, or null. */
  private static List<String> section(String name) {
    int start = lines.indexOf("### `" + name + "`");
    if (start < 0) {
      return null;
    }
    List<String> body = new ArrayList<>();
    for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
      body.add(lines.get(i));
    }
    return body;
  }
}
