package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a saturated pod's queue is described: growing, shrinking or steady, never "grew by -5.2". */
class QueueTrendTest {
  @ParameterizedTest(name = "growth {0}, mean {1}: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          12.5  | 40.2 | waiting grew by 12.5 (40.2 on average)
          -5.2  | 49.4 | 49.4 requests waited on average (the queue shrank by 5.2 over the window)
          0.0   | 30   | 30.0 requests waited throughout
          -0.01 | 30   | 30.0 requests waited throughout
          """)
  void theQueuesTrendInWords(double growth, double mean, String words) {
    assertThat(Rules.queueTrend(growth, mean)).isEqualTo(words);
  }
}
