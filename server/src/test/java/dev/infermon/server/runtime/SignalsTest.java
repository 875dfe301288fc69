package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * SIGHUP in a real child JVM: delivered, it reaches the handler; ignored by the parent ({@code
 * nohup}), the JVM installs nothing, and infermon must say so rather than drop every reload.
 */
@EnabledOnOs(OS.LINUX)
class SignalsTest {

  @Test
  void hangupReachesTheHandler() throws Exception {
    // A child inherits an ignored SIGHUP (a build started under nohup): nothing to deliver then.
    assumeFalse(hangupIgnoredHere(), "SIGHUP is ignored by this test JVM (started under nohup?)");
    Process p = probe(List.of());
    try (BufferedReader out = reader(p)) {
      assertThat(lineStarting(out, "installed=")).isEqualTo("installed=true");
      new ProcessBuilder("kill", "-HUP", Long.toString(p.pid())).start().waitFor();
      assertThat(lineStarting(out, "hangup")).isEqualTo("hangup");
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void hangupIgnoredByTheParentIsReportedNotDroppedSilently() throws Exception {
    Process p = probe(List.of("nohup"));
    try (BufferedReader out = reader(p)) {
      List<String> lines = out.lines().toList();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(lines).contains("installed=false");
      assertThat(String.join("\n", lines))
          .contains("SIGHUP is ignored by the process that started infermon")
          .contains("POST /-/reload");
    } finally {
      p.destroyForcibly();
    }
  }

  /** Whether this process ignores SIGHUP: bit 0 of {@code SigIgn} in /proc/self/status. */
  private static boolean hangupIgnoredHere() throws IOException {
    for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (l.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(l.substring(7).trim(), 16) & 1L) != 0;
      }
    }
    return false;
  }

  /** The first line that starts with {@code prefix}; null at the end of the output. */
  private static String lineStarting(BufferedReader out, String prefix) throws IOException {
    for (String l = out.readLine(); l != null; l = out.readLine()) {
      if (l.startsWith(prefix)) {
        return l;
      }
    }
    return null;
  }

  private static Process probe(List<String> prefix) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    assertThat(Files.isExecutable(java)).isTrue();
    List<String> cmd = new ArrayList<>(prefix);
    cmd.addAll(
        List.of(
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            HangupProbe.class.getName()));
    return new ProcessBuilder(cmd).redirectErrorStream(true).start();
  }

  private static BufferedReader reader(Process p) {
    return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
  }
}
