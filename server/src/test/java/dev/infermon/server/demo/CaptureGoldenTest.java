package dev.infermon.server.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.simulator.testing.Captures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End-to-end goldens over every real capture (issue 21): each capture of {@link Captures#all()}
 * (SOURCES.md's rows, so a new capture with its row is picked up) replayed as {@code infermon demo
 * --replay} replays it ({@link ReplayedWorld}: the scrape pipeline, the TSDB, the default alert
 * pack evaluated in simulated time), then everything infermon says about it ({@link GoldenReport})
 * is compared with {@code src/test/resources/golden/<capture path>.golden}, comments ignored.
 *
 * <p>A line that infermon gets wrong on that capture carries {@code # WRONG: <why>}: the golden
 * records what infermon says today, the comment what is true; fixing the cause changes the line and
 * the reviewer drops the comment. A capture without a golden fails; so does a golden still marked
 * {@link GoldenFile#UNREVIEWED}. Regenerate with {@code ./mvnw -o -pl server test
 * -Dtest=CaptureGoldenTest -Dinfermon.golden.regenerate=true} (comments of unchanged lines are
 * kept), then review the diff.
 *
 * <p>Pairings ({@link #targets}): an inference capture is replayed alone, as a user would replay
 * their endpoint; a dcgm-exporter capture is replayed beside {@link #COMPANION}, given the
 * namespace and pod the exporter attributes its GPUs to (or its default labels when it attributes
 * none), so the GPU panels have a pod to attach to, or say truly that none is attributed.
 */
class CaptureGoldenTest {
  static final Path GOLDEN = Path.of("src/test/resources/golden");

  /** Where each golden's panel queries are written, for whoever reviews a change. */
  static final Path QUERIES = Path.of("target/golden");

  static final String REGENERATE = "infermon.golden.regenerate";

  /**
   * The inference capture a dcgm page is replayed beside: vLLM's current release line, a real page
   * from a running server with a small model (Qwen2.5 1.5B, which fits the GPUs of both dcgm
   * captures: an RTX 4000 Ada of 20 GB and an L40S of 48 GB).
   */
  static final String COMPANION = "vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt";

  private static final Pattern POD = Pattern.compile("[{,]pod=\"([^\"]+)\"");
  private static final Pattern NAMESPACE = Pattern.compile("[{,]namespace=\"([^\"]+)\"");

  static Stream<Arguments> captures() {
    return Captures.all().stream().map(e -> Arguments.of(Named.of(e.path(), e)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("captures")
  void captureGivesItsGolden(Captures.Entry capture, @TempDir Path dir) throws Exception {
    List<ReplayTarget> targets = targets(capture);
    List<String> facts;
    List<String> queries = new ArrayList<>();
    try (ReplayedWorld w = ReplayedWorld.run(targets, dir)) {
      facts = GoldenReport.of(w, queries);
    }
    Path file = GOLDEN.resolve(capture.path() + ".golden");
    Path promql = QUERIES.resolve(capture.path() + ".promql");
    Files.createDirectories(promql.getParent());
    Files.write(promql, queries, StandardCharsets.UTF_8);
    String old = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
    if (Boolean.getBoolean(REGENERATE)) {
      Files.createDirectories(file.getParent());
      old = GoldenFile.regenerate(old, header(capture, targets), facts);
      Files.writeString(file, old, StandardCharsets.UTF_8);
    }
    assertThat(old)
        .as(
            "no golden for %s: run with -D%s=true, then review %s",
            capture.path(), REGENERATE, file)
        .isNotNull();
    List<String> diff = GoldenFile.diff(GoldenFile.facts(old), facts);
    assertThat(diff)
        .as(
            "%s differs from what infermon says now (- golden, + now); if the change is right, run"
                + " with -D%s=true and review the diff",
            file, REGENERATE)
        .isEmpty();
    assertThat(GoldenFile.reviewed(old))
        .as("%s is not reviewed yet: %s", file, GoldenFile.UNREVIEWED)
        .isTrue();
  }

  @Test
  void everyGoldenHasItsCapture() throws IOException {
    Set<String> captures =
        Captures.all().stream().map(e -> e.path() + ".golden").collect(Collectors.toSet());
    List<String> goldens;
    try (Stream<Path> s = Files.walk(GOLDEN)) {
      goldens =
          s.filter(p -> p.toString().endsWith(".golden"))
              .map(p -> GOLDEN.relativize(p).toString().replace('\\', '/'))
              .sorted()
              .toList();
    }
    assertThat(goldens).as("goldens under %s", GOLDEN).isNotEmpty();
    assertThat(captures).as("captures of SOURCES.md").containsAll(goldens);
  }

  /** What the golden of {@code capture} replays: the capture, and a companion for dcgm pages. */
  static List<ReplayTarget> targets(Captures.Entry capture) {
    ReplayTarget t = capture.target();
    if (!t.job().equals("dcgm")) {
      return List.of(t);
    }
    Captures.Entry companion = Captures.get(COMPANION);
    String text = capture.text();
    Matcher pod = POD.matcher(text);
    Matcher ns = NAMESPACE.matcher(text);
    ReplayTarget engine =
        pod.find() && ns.find()
            ? companion.target("namespace", ns.group(1), "pod", pod.group(1))
            : companion.target();
    return List.of(t, engine);
  }

  private static List<String> header(Captures.Entry capture, List<ReplayTarget> targets) {
    List<String> h = new ArrayList<>();
    h.add("What infermon says about " + capture.path() + " (" + capture.engineAndVersion() + "),");
    h.add("replayed as `infermon demo --replay` replays it: CaptureGoldenTest, server module.");
    h.add(
        "History "
            + ReplayedWorld.HISTORY.toMinutes()
            + "m scraped every "
            + ReplayedWorld.STEP.toSeconds()
            + "s from T0 (pages equal the captures at T0);"
            + " dashboard over the last "
            + GoldenReport.DASHBOARD_RANGE.toMinutes()
            + "m, lint against the stored reference, alerts and diagnosis at the end.");
    for (ReplayTarget t : targets) {
      StringBuilder sb = new StringBuilder("Target <").append(t.name()).append(">: ");
      sb.append(t.capture().name()).append(", job ").append(t.job());
      for (Map.Entry<String, String> e : t.labels().entrySet()) {
        sb.append(", ").append(e.getKey()).append('=').append(e.getValue());
      }
      sb.append(", uptime ").append(t.uptime().toMinutes()).append('m');
      h.add(sb.toString());
    }
    h.add("A line marked '# WRONG: <why>' is false on this capture; comments are not compared.");
    h.add(
        "Regenerate: ./mvnw -o -pl server test -Dtest=CaptureGoldenTest -D"
            + REGENERATE
            + "=true, then review the diff.");
    return h;
  }
}
