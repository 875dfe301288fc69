package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules {@code infermon diagnose} and {@code /api/v1/llm/diagnosis} share, decided by {@link
 * DiagnosisService} alone: the window a request names (the parts it leaves out filled in), the step
 * for a window, and the parameter a bad request names.
 */
class DiagnosisServiceTest {
  static final long NOW = 1_780_000_000_000L;

  static DiagnosisService service() {
    QueryBackend backend =
        new EmbeddedQueryBackend(new MemoryStorage(), new Engine(EngineOptions.DEFAULTS));
    return new DiagnosisService(
        backend,
        new InventoryService(Catalog.builtIn(), backend),
        () -> Thresholds.DEFAULT,
        () -> NOW);
  }

  static OptionalLong opt(String s) {
    return s == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(s));
  }

  @ParameterizedTest(name = "start {0}, end {1}, window {2} → [{3}, {4}]")
  @CsvSource(
      nullValues = "-",
      value = {
        // start (ms), end (ms), window (ms) → the window diagnosed, relative to now
        "-, -, -, -1800000, 0", // the last 30 minutes
        "-, -, 7200000, -7200000, 0",
        "-, -600000, 600000, -1200000, -600000", // an end in the past
        "-3600000, -60000, -, -3600000, -60000",
        "-3600000, -60000, 300000, -3600000, -60000", // a start wins over a window
        "-3600000, -, -, -3600000, 0", // the end is now
      })
  void theRequestsWindowWithWhatItLeavesOutFilledIn(
      String start, String end, String window, long wantStart, long wantEnd) {
    DiagnosisRequest r =
        new DiagnosisRequest(shift(opt(start)), shift(opt(end)), opt(window), OptionalLong.empty());
    Diagnosis d = service().diagnose(r);
    assertThat(d.startMs() - NOW).isEqualTo(wantStart);
    assertThat(d.endMs() - NOW).isEqualTo(wantEnd);
  }

  private static OptionalLong shift(OptionalLong relative) {
    return relative.isPresent() ? OptionalLong.of(NOW + relative.getAsLong()) : relative;
  }

  @ParameterizedTest(name = "window {0} → step {1}")
  @CsvSource({
    // about 120 points in whole seconds, never under a 15 s scrape
    "60000, 15000",
    "1800000, 15000",
    "3600000, 30000",
    "7200000, 60000",
    "10800000, 90000",
    "7260000, 60000", // 60.5 s rounds down to whole seconds
    "86400000, 720000",
  })
  void theStepIsAHundredAndTwentiethOfTheWindowAtLeastFifteenSeconds(long window, long step) {
    assertThat(DiagnosisService.step(window)).isEqualTo(step);
  }

  @ParameterizedTest(name = "start {0}, end {1}, window {2}, step {3} → {4}")
  @CsvSource(
      nullValues = "-",
      value = {
        "0, 0, -, -, end",
        "60000, 0, -, -, end",
        "-, -, 0, -, end",
        "-, -, -, 0, step",
        "-, -, -, -15000, step",
      })
  void aBadRequestNamesItsParameter(
      String start, String end, String window, String step, String parameter) {
    DiagnosisRequest r =
        new DiagnosisRequest(shift(opt(start)), shift(opt(end)), opt(window), opt(step));
    assertThatThrownBy(() -> service().diagnose(r))
        .isInstanceOfSatisfying(
            BadParameterException.class, e -> assertThat(e.parameter()).isEqualTo(parameter));
  }
}
