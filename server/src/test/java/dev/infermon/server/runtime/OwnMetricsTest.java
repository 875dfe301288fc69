package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** infermon's own scrape metrics. */
class OwnMetricsTest {
  @Test
  void noMetricSamplesExemplars() throws ReflectiveOperationException {
    // client_java samples exemplars by default, and each observation it accepts schedules a task
    // on its scheduler thread to rate-limit the next one: about 4 % of the server's CPU at 135
    // targets, for exemplars that carry nothing without a tracer. Metrics built without
    // exemplars have no sampler configuration (client_java 1.x's private field, read here).
    OwnMetrics m = new OwnMetrics(new PrometheusRegistry());
    List<String> checked = new ArrayList<>();
    for (Field f : OwnMetrics.class.getDeclaredFields()) {
      if (f.getType() != Counter.class && f.getType() != Histogram.class) {
        continue;
      }
      f.setAccessible(true);
      Object metric = f.get(m);
      Field config = f.getType().getDeclaredField("exemplarSamplerConfig");
      config.setAccessible(true);
      assertThat(config.get(metric)).as(f.getName() + " samples exemplars").isNull();
      checked.add(f.getName());
    }
    assertThat(checked).hasSizeGreaterThanOrEqualTo(4);
  }
}
