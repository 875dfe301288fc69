package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.InferenceConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.Providers;
import dev.infermon.discovery.inference.InferenceDiscovery;
import dev.infermon.discovery.kubernetes.KubernetesClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scrape pools infermon creates itself from the {@code inference} section: {@code inference}
 * for the inference pods and, with {@code inference.dcgm.enabled}, {@code dcgm} for the
 * dcgm-exporter pods, with {@code inference.amdgpu.enabled}, {@code amdgpu} for AMD's
 * device-metrics-exporter pods. All are plain scrape configs ({@link ScrapeConfig#defaults}, {@code
 * honor_labels: false}, so an exporter's own {@code pod}/{@code namespace} become {@code
 * exported_*}) scraped at the section's interval; their targets come with final labels from {@link
 * InferenceDiscovery}, so they need no relabeling. Stateless.
 */
final class InferencePools {
  private InferencePools() {}

  /**
   * The configured scrape configs followed by the inference pools.
   *
   * @throws IllegalArgumentException when a configured job already uses a pool's name
   */
  static List<ScrapeConfig> scrapeConfigs(Config cfg) {
    List<ScrapeConfig> out = new ArrayList<>(cfg.scrapeConfigs());
    InferenceConfig inf = cfg.inference();
    if (!inf.enabled()) {
      return out;
    }
    List<String> pools = new ArrayList<>();
    pools.add(InferenceDiscovery.INFERENCE_POOL);
    if (inf.dcgm().enabled()) {
      pools.add(InferenceDiscovery.DCGM_POOL);
    }
    if (inf.amdgpu().enabled()) {
      pools.add(InferenceDiscovery.AMDGPU_POOL);
    }
    for (String pool : pools) {
      for (ScrapeConfig sc : cfg.scrapeConfigs()) {
        if (sc.jobName().equals(pool)) {
          throw new IllegalArgumentException(
              "scrape config job name \""
                  + pool
                  + "\" is taken by inference discovery (inference.enabled); rename the job");
        }
      }
      out.add(
          ScrapeConfig.defaults(pool, cfg.global())
              .withIntervals(inf.scrapeInterval(), inf.scrapeTimeout()));
    }
    return out;
  }

  /**
   * The discoverers of every pool of {@link #scrapeConfigs}. Each Kubernetes watch has its own
   * client, closed when its discoverer stops.
   */
  static Map<String, List<Discoverer>> discoverers(Config cfg) {
    Map<String, List<Discoverer>> out = new LinkedHashMap<>();
    for (ScrapeConfig sc : cfg.scrapeConfigs()) {
      out.put(sc.jobName(), Providers.of(sc));
    }
    InferenceConfig inf = cfg.inference();
    if (inf.enabled()) {
      KubernetesClient pods = client(inf);
      out.put(
          InferenceDiscovery.INFERENCE_POOL,
          List.of(Providers.closing(InferenceDiscovery.pods(inf, pods), pods)));
      if (inf.dcgm().enabled()) {
        KubernetesClient exporters = client(inf);
        out.put(
            InferenceDiscovery.DCGM_POOL,
            List.of(Providers.closing(InferenceDiscovery.dcgm(inf.dcgm(), exporters), exporters)));
      }
      if (inf.amdgpu().enabled()) {
        KubernetesClient exporters = client(inf);
        out.put(
            InferenceDiscovery.AMDGPU_POOL,
            List.of(
                Providers.closing(InferenceDiscovery.amdgpu(inf.amdgpu(), exporters), exporters)));
      }
    }
    return out;
  }

  private static KubernetesClient client(InferenceConfig inf) {
    return KubernetesClients.create("", inf.kubeconfigFile(), null);
  }
}
