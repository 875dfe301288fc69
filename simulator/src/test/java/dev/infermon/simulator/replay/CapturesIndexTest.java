package dev.infermon.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.testing.Captures;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The captures' home: every file under {@code captures/} has its SOURCES.md row and every row its
 * file, each row has its engine, source and what it shows, and the copy is verbatim where {@code
 * ../shared/fixtures} is present (it is not on a fresh clone).
 */
class CapturesIndexTest {
  private static Path root() throws URISyntaxException {
    return Path.of(CapturesIndexTest.class.getResource("/captures/SOURCES.md").toURI()).getParent();
  }

  @Test
  void sourcesListsEveryFileAndEveryFileIsListed() throws Exception {
    Path root = root();
    List<String> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(Files::isRegularFile)
              .map(p -> root.relativize(p).toString().replace('\\', '/'))
              .filter(p -> !p.equals("SOURCES.md"))
              .sorted()
              .toList();
    }
    assertThat(Captures.all().stream().map(Captures.Entry::path).sorted().toList())
        .isEqualTo(files)
        .hasSize(12);
    for (Captures.Entry e : Captures.all()) {
      assertThat(e.engineAndVersion()).as(e.path()).isNotBlank();
      assertThat(e.source()).as(e.path()).isNotBlank();
      assertThat(e.shows()).as(e.path()).isNotBlank();
      assertThat(e.bytes()).as(e.path()).isNotEmpty();
    }
    assertThat(Captures.get("vllm-0.4.3.txt").engineAndVersion())
        .isEqualTo("vLLM 0.4.3, V0 engine");
  }

  @Test
  void theCopiesAreVerbatim() throws Exception {
    Path shared = Path.of(System.getProperty("infermon.shared.dir", "../../shared"), "fixtures");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isDirectory(shared), shared + " is absent (a fresh clone): nothing to compare");
    // the shared index comes first, word for word; captures found for infermon follow it
    String sharedIndex = Files.readString(shared.resolve("SOURCES.md"));
    assertThat(Captures.sources()).startsWith(sharedIndex);
    String own = Captures.sources().substring(sharedIndex.length());
    for (Captures.Entry e : Captures.all()) {
      if (own.contains("| " + e.path() + " |")) {
        assertThat(shared.resolve(e.path())).as(e.path()).doesNotExist();
        continue;
      }
      assertThat(e.bytes()).as(e.path()).isEqualTo(Files.readAllBytes(shared.resolve(e.path())));
    }
  }
}
