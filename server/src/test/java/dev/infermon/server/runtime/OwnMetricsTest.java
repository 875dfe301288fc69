package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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

  @Test
  void exposesWhatJvmMetricsExposesButThePerCollectionAllocationCounter() {
    // The test JVM runs without -XX:NativeMemoryTracking, so client_java's own bundle registers
    // no native-memory metrics either: the two must expose the same families, but the allocation
    // counter fed by a JMX notification after every collection (OwnMetrics says why).
    assertThat(OwnMetrics.nativeMemoryTracking()).isFalse();
    PrometheusRegistry ours = new PrometheusRegistry();
    new OwnMetrics(ours);
    PrometheusRegistry bundle = new PrometheusRegistry();
    JvmMetrics.builder().register(bundle);
    Set<String> expected = names(bundle);
    assertThat(expected)
        .hasSizeGreaterThan(10)
        .contains("jvm_memory_used_bytes", "jvm_memory_pool_allocated_bytes");
    expected.remove("jvm_memory_pool_allocated_bytes");
    assertThat(names(ours)).containsAll(expected).doesNotContain("jvm_memory_pool_allocated_bytes");
  }

  private static Set<String> names(PrometheusRegistry r) {
    Set<String> out = new TreeSet<>();
    for (MetricSnapshot s : r.scrape()) {
      if (s.getMetadata().getName().startsWith("jvm")
          || s.getMetadata().getName().startsWith("process")) {
        out.add(s.getMetadata().getName());
      }
    }
    return out;
  }
}
