package dev.infermon.config.scrape;

import dev.infermon.config.yaml.YamlKey;
import java.util.List;

/**
 * Kubernetes discovery ({@code kubernetes_sd_configs}). Without {@code api_server} and {@code
 * kubeconfig_file} the in-cluster service account is used.
 */
public record KubernetesSdConfig(
    String apiServer,
    KubernetesRole role,
    String kubeconfigFile,
    Namespaces namespaces,
    List<Selector> selectors,
    AttachMetadata attachMetadata,
    @YamlKey(inline = true) HttpClientConfig httpClient) {

  /** Which namespaces to watch: the listed ones, plus the own one if asked; none means all. */
  public record Namespaces(boolean ownNamespace, List<String> names) {
    public static final Namespaces ALL = new Namespaces(false, List.of());
  }

  /** A label and/or field selector applied to objects of one role. */
  public record Selector(KubernetesRole role, String label, String field) {}

  /** Extra metadata attached to targets. */
  public record AttachMetadata(boolean node, boolean namespace) {
    public static final AttachMetadata NONE = new AttachMetadata(false, false);
  }
}
