package dev.infermon.discovery.kubernetes;

import dev.infermon.config.scrape.KubernetesRole;
import dev.infermon.config.scrape.KubernetesSdConfig;
import dev.infermon.discovery.Discoverer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code kubernetes_sd_configs}: builds the discoverer for one config. Only role {@code pod} is
 * implemented; other roles are refused with a message naming the role.
 */
public final class KubernetesDiscovery {
  private KubernetesDiscovery() {}

  /**
   * The discoverer for {@code config}, watching through {@code client} (which the caller owns and
   * closes after stopping the discoverer).
   *
   * @throws IllegalArgumentException if the role is not {@code pod}
   */
  public static Discoverer of(KubernetesSdConfig config, KubernetesClient client) {
    if (config.role() != KubernetesRole.POD) {
      throw new IllegalArgumentException(
          "kubernetes_sd_configs role \"" + config.role() + "\" is not supported (only \"pod\")");
    }
    List<String> namespaces = new ArrayList<>(config.namespaces().names());
    if (config.namespaces().ownNamespace()) {
      namespaces.add(KubernetesClients.ownNamespace(client));
    }
    String label = "";
    String field = "";
    for (KubernetesSdConfig.Selector s : config.selectors()) {
      if (s.role() == KubernetesRole.POD) {
        label = s.label() == null ? "" : s.label();
        field = s.field() == null ? "" : s.field();
      }
    }
    return new PodDiscoverer(new PodWatch(client, namespaces, label, field), PodTargets::group);
  }
}
