package dev.infermon.simulator.tgi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.text.RustFloat;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * TGI's bounds, computed as its router computes them and written as Rust writes them, are the
 * capture's {@code le} strings character for character (its router ran with max_input_tokens 511
 * and max_total_tokens 512).
 */
class TgiBucketsTest {
  private static List<String> les(String family) {
    Matcher m =
        Pattern.compile(
                "^" + family + "_bucket\\{(?:method=\"[a-z]+\",)?le=\"([^\"]+)\"\\}",
                Pattern.MULTILINE)
            .matcher(Captures.get("tgi-2.4-3.x_datadog-e2e.txt").text());
    List<String> out = new ArrayList<>();
    while (m.find() && out.size() < 2000) {
      if (!m.group(1).equals("+Inf")) {
        out.add(m.group(1));
      } else if (!out.isEmpty()) {
        break; // one series' bounds
      }
    }
    return out;
  }

  private static List<String> formatted(double[] bounds) {
    List<String> out = new ArrayList<>();
    for (double b : bounds) {
      out.add(RustFloat.format(b));
    }
    return out;
  }

  @Test
  void durationBoundsAreTheCaptures() {
    assertThat(formatted(TgiBuckets.DURATION)).isEqualTo(les("tgi_request_duration"));
    assertThat(formatted(TgiBuckets.DURATION)).hasSize(35).startsWith("0.00015000000000000001");
  }

  @Test
  void tokenBoundsAreTheCapturesForItsLimits() {
    assertThat(formatted(TgiBuckets.linear(511))).isEqualTo(les("tgi_request_input_length"));
    assertThat(formatted(TgiBuckets.linear(512))).isEqualTo(les("tgi_request_max_new_tokens"));
    assertThat(formatted(TgiBuckets.linear(512))).isEqualTo(les("tgi_request_generated_tokens"));
    assertThat(formatted(TgiBuckets.BATCH_SIZE)).isEqualTo(les("tgi_batch_next_size"));
  }

  @Test
  void rustWritesShortestDigitsWithoutExponentOrFraction() {
    assertThat(RustFloat.format(128.0)).isEqualTo("128");
    assertThat(RustFloat.format(0)).isEqualTo("0");
    assertThat(RustFloat.format(1.5e-5)).isEqualTo("0.000015");
    assertThat(RustFloat.format(1e16)).isEqualTo("10000000000000000");
    assertThat(RustFloat.format(541.2140316159999)).isEqualTo("541.2140316159999");
    assertThat(RustFloat.format(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
  }
}
