package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.yaml.Problem;
import dev.infermon.config.yaml.YamlPrinter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code llm.cost} section: prices per GPU model, each invalid entry at its position. */
class CostConfigTest {
  @Test
  void withoutTheSectionNothingIsPriced() throws ConfigException {
    LlmConfig.Cost c = Fixtures.parse("llm: {}\n").llm().cost();
    assertThat(c).isEqualTo(LlmConfig.Cost.NONE);
    assertThat(c.priced()).isFalse();
    assertThat(c.price("NVIDIA H100 80GB HBM3")).isEmpty();
  }

  @Test
  void pricesAreKeyedByDcgmModelNameWithAnOptionalDefault() throws ConfigException {
    LlmConfig.Cost c =
        Fixtures.parse(
                """
                llm:
                  cost:
                    currency: EUR
                    default_gpu_hour_price: 1
                    gpu_hour_prices:
                      NVIDIA H100 80GB HBM3: 2.5
                      "NVIDIA A10G": 0
                """)
            .llm()
            .cost();
    assertThat(c.currency()).isEqualTo("EUR");
    assertThat(c.gpuHourPrices())
        .containsExactly(Map.entry("NVIDIA H100 80GB HBM3", 2.5), Map.entry("NVIDIA A10G", 0.0));
    assertThat(c.price("NVIDIA H100 80GB HBM3")).contains(2.5);
    assertThat(c.price("NVIDIA A10G")).contains(0.0);
    assertThat(c.price("NVIDIA L4")).contains(1.0);
    Config printed = Fixtures.parse("llm:\n  cost:\n    gpu_hour_prices: {x: 3}\n");
    assertThat(printed.llm().cost().price("y")).isEmpty();
    assertThat(ConfigLoader.create().parse(YamlPrinter.print(printed, false), "printed.yml"))
        .isEqualTo(printed);
  }

  record Case(String name, String yaml, List<String> problems) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> bad() {
    return Stream.of(
        new Case(
            "unknown key",
            "llm:\n  cost:\n    gpu_hour_price: {x: 1}\n",
            List.of(
                "infermon.yml:3:5: llm.cost.gpu_hour_price: unknown key; did you mean"
                    + " gpu_hour_prices?")),
        new Case(
            "negative price",
            "llm:\n  cost:\n    gpu_hour_prices:\n      NVIDIA H100 80GB HBM3: -2\n",
            List.of(
                "infermon.yml:4:30: llm.cost.gpu_hour_prices.NVIDIA H100 80GB HBM3: a price"
                    + " must be a number of at least 0, got the number -2")),
        new Case(
            "price that is not a number",
            "llm:\n  cost:\n    gpu_hour_prices:\n      A10G: cheap\n",
            List.of(
                "infermon.yml:4:13: llm.cost.gpu_hour_prices.A10G: a price must be a number"
                    + " of at least 0, got the string \"cheap\"")),
        new Case(
            "price list instead of a mapping",
            "llm:\n  cost:\n    gpu_hour_prices: [2.5]\n",
            List.of("infermon.yml:3:22: llm.cost.gpu_hour_prices: expected a mapping, got a list")),
        new Case(
            "negative default",
            "llm:\n  cost:\n    default_gpu_hour_price: -1\n",
            List.of(
                "infermon.yml:3:29: llm.cost.default_gpu_hour_price: a price must be a number"
                    + " of at least 0, got -1.0")),
        new Case(
            "default that is not a number",
            "llm:\n  cost:\n    default_gpu_hour_price: two\n",
            List.of(
                "infermon.yml:3:29: llm.cost.default_gpu_hour_price: expected a number, got"
                    + " the string \"two\"")),
        new Case(
            "empty currency",
            "llm:\n  cost:\n    currency: \"\"\n",
            List.of("infermon.yml:3:15: llm.cost.currency: must not be empty")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void badEntriesAreRefusedNamingThePath(Case c) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> Fixtures.parse(c.yaml()));
    assertThat(e).as("no problem reported for:%n%s", c.yaml()).isNotNull();
    assertThat(e.problems()).extracting(Problem::toString).containsExactlyElementsOf(c.problems());
  }

  @Test
  void theRecordRefusesWhatTheMappingRefuses() {
    assertThatThrownBy(
            () -> new LlmConfig.Cost("USD", Optional.empty(), Map.of("NVIDIA A10G", -1.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gpu_hour_prices.NVIDIA A10G must be a number of at least 0, got -1.0");
    assertThatThrownBy(() -> new LlmConfig.Cost("USD", Optional.of(Double.NaN), Map.of()))
        .hasMessage("default_gpu_hour_price must be a number of at least 0, got NaN");
  }
}
