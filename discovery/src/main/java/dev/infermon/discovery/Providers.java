package dev.infermon.discovery;

import dev.infermon.config.scrape.FileSdConfig;
import dev.infermon.config.scrape.KubernetesSdConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.file.FileDiscoverer;
import dev.infermon.discovery.kubernetes.KubernetesClients;
import dev.infermon.discovery.kubernetes.KubernetesDiscovery;
import dev.infermon.discovery.staticsd.StaticDiscoverer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/** Builds the discoverers a scrape config names. */
public final class Providers {
  private Providers() {}

  /**
   * The discoverers of one scrape config: one for its static targets (if any), one per {@code
   * file_sd_configs} entry and one per {@code kubernetes_sd_configs} entry. Kubernetes clients are
   * created here and closed when their discoverer stops.
   */
  public static List<Discoverer> of(ScrapeConfig sc) {
    List<Discoverer> out = new ArrayList<>();
    if (!sc.staticConfigs().isEmpty()) {
      out.add(new StaticDiscoverer(sc.staticConfigs()));
    }
    for (FileSdConfig f : sc.fileSdConfigs()) {
      out.add(new FileDiscoverer(f));
    }
    for (KubernetesSdConfig k : sc.kubernetesSdConfigs()) {
      KubernetesClient client =
          KubernetesClients.create(k.apiServer(), k.kubeconfigFile(), k.httpClient());
      out.add(closing(KubernetesDiscovery.of(k, client), client));
    }
    return out;
  }

  /** Wraps a discoverer so that stopping it also closes {@code resource}. */
  public static Discoverer closing(Discoverer d, AutoCloseable resource) {
    return new Discoverer() {
      @Override
      public void run(TargetSink sink) {
        d.run(sink);
      }

      @Override
      public void stop() {
        d.stop();
        try {
          resource.close();
        } catch (Exception e) {
          // Closing a client on shutdown: nothing useful to do with the failure.
        }
      }
    };
  }
}
