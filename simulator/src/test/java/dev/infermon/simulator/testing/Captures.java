package dev.infermon.simulator.testing;

import dev.infermon.simulator.replay.Capture;
import dev.infermon.simulator.replay.CaptureException;
import dev.infermon.simulator.replay.ReplayTarget;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The real {@code /metrics} captures, copied verbatim from {@code ../shared/fixtures} into the
 * simulator's test resources ({@code captures/<engine>/<file>}) with their provenance ({@code
 * captures/SOURCES.md}), and shipped in its test-jar so that any module's tests can read them or
 * replay them. {@link #all()} lists them in the order of SOURCES.md, each with its row.
 */
public final class Captures {
  private static final String ROOT = "/captures/";
  private static final List<Entry> ALL = load();

  private Captures() {}

  /**
   * One capture and its SOURCES.md row.
   *
   * @param path its path under {@code captures/}, e.g. {@code vllm/vllm-0.4.3.txt}
   * @param engineAndVersion the row's "engine and version"
   * @param source the row's "source (repository · path · commit)"
   * @param shows the row's "what it shows"
   */
  public record Entry(String path, String engineAndVersion, String source, String shows) {
    /** The file's name, e.g. {@code vllm-0.4.3.txt}. */
    public String fileName() {
      return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The page's bytes. */
    public byte[] bytes() {
      return resource(ROOT + path);
    }

    /** The page's text. */
    public String text() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    /** The page read for replay (every capture here is one; a failure is a broken test tree). */
    public Capture capture() {
      try {
        return Capture.parse(path, bytes());
      } catch (CaptureException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }

    /**
     * The capture as a target with the default labels ({@link ReplayTarget#of}) changed by {@code
     * labels} ({@code "pod", "x", "role", "decode"}), and the default uptime.
     */
    public ReplayTarget target(String... labels) {
      if (labels.length % 2 != 0) {
        throw new IllegalArgumentException("labels come in name, value pairs");
      }
      Map<String, String> overrides = new LinkedHashMap<>();
      for (int i = 0; i < labels.length; i += 2) {
        overrides.put(labels[i], labels[i + 1]);
      }
      return ReplayTarget.of(Path.of(path), capture(), overrides, ReplayTarget.DEFAULT_UPTIME);
    }

    /** As {@link #target(String...)} with another uptime. */
    public ReplayTarget target(Duration uptime, String... labels) {
      ReplayTarget t = target(labels);
      return new ReplayTarget(t.name(), t.capture(), t.job(), t.labels(), uptime);
    }
  }

  /** Every capture, in the order SOURCES.md lists them. */
  public static List<Entry> all() {
    return ALL;
  }

  /**
   * The capture whose file name or path is {@code name}.
   *
   * @throws IllegalArgumentException when there is none
   */
  public static Entry get(String name) {
    for (Entry e : ALL) {
      if (e.path().equals(name) || e.fileName().equals(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException("no capture named " + name + " in captures/SOURCES.md");
  }

  /** SOURCES.md itself. */
  public static String sources() {
    return new String(resource(ROOT + "SOURCES.md"), StandardCharsets.UTF_8);
  }

  private static List<Entry> load() {
    List<Entry> out = new ArrayList<>();
    for (String line : sources().split("\n")) {
      if (!line.startsWith("| ") || line.startsWith("| file ")) {
        continue;
      }
      String[] cells = line.substring(1, line.lastIndexOf('|')).split("\\|", -1);
      if (cells.length != 4 || !cells[0].contains("/")) {
        continue;
      }
      out.add(new Entry(cells[0].strip(), cells[1].strip(), cells[2].strip(), cells[3].strip()));
    }
    return Collections.unmodifiableList(out);
  }

  private static byte[] resource(String name) {
    try (InputStream in = Captures.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
