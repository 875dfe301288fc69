package dev.infermon.discovery.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.FileSdConfig;
import dev.infermon.discovery.RecordingSink;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file_sd: JSON and YAML files matched by a glob, changes picked up, bad files tolerated. */
class FileDiscovererTest {
  @TempDir Path dir;
  private FileDiscoverer discoverer;

  @AfterEach
  void stop() {
    if (discoverer != null) {
      discoverer.stop();
    }
  }

  private RecordingSink run(String glob) {
    // A short refresh, so that the test does not depend on the file system delivering events.
    discoverer =
        new FileDiscoverer(
            new FileSdConfig(List.of(dir.resolve(glob).toString()), Duration.ofMillis(200)));
    RecordingSink sink = new RecordingSink();
    Thread t = new Thread(() -> discoverer.run(sink), "file-sd");
    t.setDaemon(true);
    t.start();
    return sink;
  }

  @Test
  void jsonAndYamlFilesBecomeGroupsAndFollowChanges() throws IOException {
    Path json = dir.resolve("a.json");
    Files.writeString(
        json,
        "[{\"targets\": [\"10.0.0.1:8000\", \"10.0.0.2:8000\"], \"labels\": {\"env\": \"prod\"}}]");
    Path yaml = dir.resolve("b.yml");
    Files.writeString(yaml, "- targets: ['10.0.0.3:9400']\n");
    Files.writeString(dir.resolve("ignored.txt"), "not a target file");
    RecordingSink sink = run("*");

    Map<String, TargetGroup> g = sink.await("two files", m -> m.size() == 2);
    TargetGroup a = g.get(json + ":0");
    assertThat(a.targets())
        .containsExactly(
            Labels.of("__address__", "10.0.0.1:8000"), Labels.of("__address__", "10.0.0.2:8000"));
    assertThat(a.labels()).isEqualTo(Labels.of("env", "prod", "__meta_filepath", json.toString()));
    assertThat(g.get(yaml + ":0").targets())
        .containsExactly(Labels.of("__address__", "10.0.0.3:9400"));

    // A broken edit keeps the previous targets.
    Files.writeString(json, "[{\"targets\": [");
    Files.writeString(yaml, "- targets: ['10.0.0.4:9400']\n");
    sink.await(
        "yaml change",
        m -> m.get(yaml + ":0").targets().get(0).get("__address__").equals("10.0.0.4:9400"));
    assertThat(sink.groups().get(json + ":0")).isEqualTo(a);

    // A deleted file removes its targets.
    Files.delete(yaml);
    sink.await("yaml gone", m -> !m.containsKey(yaml + ":0"));
    assertThat(sink.groups()).containsOnlyKeys(json + ":0");
  }

  @Test
  void invalidFilesAreRejectedWithTheReason() throws IOException {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "[{\"targets\": [\"h:1\"], \"labels\": {\"bad-name\": \"x\"}}]");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> TargetFiles.read(bad)))
        .hasMessageContaining("invalid label name \"bad-name\"");
    Files.writeString(bad, "{\"targets\": []}");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> TargetFiles.read(bad)))
        .hasMessageContaining("expected a list of target groups");
  }
}
