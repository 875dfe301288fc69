package dev.infermon.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {
  private static String[] runCapturing(String... args) {
    CommandLine cl = Main.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void versionPrintsTheBuildVersion() {
    String[] r = runCapturing("--version");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).containsPattern("^infermon \\d+\\.\\d+\\.\\d+").contains("java ");
  }

  @Test
  void helpListsTheCommand() {
    String[] r = runCapturing("--help");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("Usage: infermon").contains("--version").contains("--help");
  }

  @Test
  void unknownOptionIsAnErrorWithExitCode2() {
    String[] r = runCapturing("--no-such-flag");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("Unknown option: '--no-such-flag'");
  }
}
