package dev.infermon.simulator.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.TrtllmPod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulated trtllm-serve 1.0 page is collector.py @ 89fd9b74's: the five request families
 * without a prefix (their HELP texts the same as later), every series labelled {@code
 * engine_type="undefined"} and {@code model_name="undefined"} (server @ 00057725), in the
 * multiprocess layout with no gauge and so no {@code pid}; its values are the server's counters,
 * the queue histogram without the zero queue times the 1.0 collector skipped.
 */
class Trtllm10PageTest {
  private static final String UNDEFINED = "engine_type=\"undefined\",";

  private static Fleet fleet;
  private static TrtllmPod pod;

  @BeforeAll
  static void run() {
    fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .trtllmPods(1)
                .trtllmRelease10(1)
                .build(),
            1_780_000_000_000L);
    fleet.advance(Duration.ofMinutes(4));
    for (InferencePod p : fleet.pods()) {
      pod = (TrtllmPod) p;
    }
  }

  private static String page() {
    return fleet.render(pod.info().name()).orElseThrow();
  }

  @Test
  void theFiveUnprefixedFamiliesHistogramsFirst() {
    assertThat(pod.info().version()).isEqualTo("1.0");
    List<String> families = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^# TYPE (\\S+) (\\S+)$").matcher(page());
    while (m.find()) {
      families.add(m.group(1) + " " + m.group(2));
    }
    assertThat(families)
        .containsExactly(
            "e2e_request_latency_seconds histogram",
            "time_to_first_token_seconds histogram",
            "time_per_output_token_seconds histogram",
            "request_queue_time_seconds histogram",
            "request_success_total counter");
    assertThat(page())
        .contains(
            "# HELP request_success_total Count of successfully processed requests.\n"
                + "# TYPE request_success_total counter\n")
        .doesNotContain("trtllm_", "_created", "pid=");
  }

  @Test
  void everySeriesSaysUndefinedInSortedLabels() {
    for (String line : page().split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      assertThat(line).as(line).contains("{" + UNDEFINED).contains("model_name=\"undefined\"");
      String labels = line.substring(line.indexOf('{') + 1, line.indexOf('}'));
      List<String> names = new ArrayList<>();
      for (String kv : labels.split(",")) {
        names.add(kv.substring(0, kv.indexOf('=')));
      }
      assertThat(names).as(line).isSorted();
      assertThat(line.substring(line.lastIndexOf(' ') + 1))
          .matches("-?[0-9]+\\.[0-9]+(e[-+][0-9]+)?");
    }
    // multiprocess: a histogram's _sum before its buckets
    assertThat(page().indexOf("time_to_first_token_seconds_sum{"))
        .isPositive()
        .isLessThan(page().indexOf("time_to_first_token_seconds_bucket{"));
  }

  @Test
  void valuesAreTheServers() {
    TrtllmMetrics m = pod.metrics();
    assertThat(m.finished()).isPositive();
    double success = 0;
    for (double v : values("request_success_total")) {
      success += v;
    }
    assertThat(success).isEqualTo(m.finished());
    assertThat(values("e2e_request_latency_seconds_count"))
        .containsExactly((double) m.e2e().count());
    assertThat(values("time_to_first_token_seconds_count"))
        .containsExactly((double) m.ttft().count());
    // the healthy fleet schedules most requests at once: 1.0 left those zero queue times out
    assertThat(m.queuePositive().count()).isLessThan(m.queue().count());
    assertThat(values("request_queue_time_seconds_count"))
        .containsExactly((double) m.queuePositive().count());
  }

  private static List<Double> values(String name) {
    List<Double> out = new ArrayList<>();
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*\\} (\\S+)$").matcher(page());
    while (m.find()) {
      out.add(Double.parseDouble(m.group(1)));
    }
    return out;
  }

  /**
   * 1.3 comes before #12545 too, whose fix first observed a queue time of 0: its page leaves the
   * requests scheduled at once out of the queue histogram, as 1.0's does.
   */
  @Test
  void release13LeavesZeroQueueTimesOutToo() {
    Fleet older =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .trtllmPods(1)
                .trtllmRelease13(1)
                .build(),
            1_780_000_000_000L);
    older.advance(Duration.ofMinutes(4));
    TrtllmPod p = (TrtllmPod) older.pods().get(0);
    assertThat(p.info().version()).isEqualTo("1.3");
    String text = older.render(p.info().name()).orElseThrow();
    Matcher m =
        Pattern.compile("(?m)^trtllm_request_queue_time_seconds_count\\{[^}]*\\} (\\S+)$")
            .matcher(text);
    assertThat(m.find()).isTrue();
    assertThat(p.metrics().queuePositive().count()).isLessThan(p.metrics().queue().count());
    assertThat(Double.parseDouble(m.group(1))).isEqualTo(p.metrics().queuePositive().count());
  }
}
