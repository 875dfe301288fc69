package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 211 cases of the OpenMetrics conformance suite (prometheus/OpenMetrics {@code
 * tests/testdata/parsers}, copied into the test resources with their licence): with the default
 * options the OpenMetrics parser accepts the 44 good ones and rejects the 167 bad ones. What the
 * good ones parse to is pinned by {@code golden/openmetrics-good.golden}.
 */
class OpenMetricsSuiteTest {
  record Case(String name, boolean shouldParse, byte[] metrics) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() throws IOException, URISyntaxException {
    Path root =
        Path.of(OpenMetricsSuiteTest.class.getResource("/openmetrics-suite/parsers").toURI());
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.sorted()
          .map(
              d -> {
                try {
                  String json = Files.readString(d.resolve("test.json"));
                  boolean should = json.replace(" ", "").contains("\"shouldParse\":true");
                  return new Case(
                      d.getFileName().toString(), should, Files.readAllBytes(d.resolve("metrics")));
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .collect(Collectors.toList());
    }
  }

  private static String error(byte[] metrics) {
    Parser p = Parsers.forFormat(Format.OPENMETRICS, ParserOptions.DEFAULT).parse(metrics);
    try {
      while (p.next() != Entry.EOF) {
        // drain
      }
      return null;
    } catch (ParseException e) {
      return e.getMessage();
    }
  }

  @Test
  void theSuiteHas44GoodAnd167BadCases() throws Exception {
    List<Case> all = cases();
    assertThat(all).hasSize(211);
    assertThat(all.stream().filter(Case::shouldParse)).hasSize(44);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void goodCasesParseAndBadCasesAreRejected(Case c) {
    String error = error(c.metrics());
    if (c.shouldParse()) {
      assertThat(error).as("error on a good case").isNull();
    } else {
      assertThat(error).as("a bad case must be rejected").isNotNull();
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void lenientParsingRejectsNoGoodCase(Case c) {
    ParserOptions lenient = ParserOptions.builder().conformance(Conformance.LENIENT).build();
    Parser p = Parsers.forFormat(Format.OPENMETRICS, lenient).parse(c.metrics());
    if (c.shouldParse()) {
      assertThat(drains(p)).isTrue();
    }
  }

  private static boolean drains(Parser p) {
    try {
      while (p.next() != Entry.EOF) {
        // drain
      }
      return true;
    } catch (ParseException e) {
      return false;
    }
  }

  @Test
  void goodCasesParseToTheirGoldenFile() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (Case c : cases()) {
      if (c.shouldParse()) {
        sb.append("== ").append(c.name()).append('\n');
        sb.append(
            Dump.of(
                Parsers.forFormat(Format.OPENMETRICS, ParserOptions.DEFAULT).parse(c.metrics())));
      }
    }
    String golden = "golden/openmetrics-good.golden";
    if (Boolean.getBoolean("infermon.golden.update")) {
      Resources.write(golden, sb.toString());
    }
    assertThat(sb.toString()).isEqualTo(Resources.string(golden));
  }
}
