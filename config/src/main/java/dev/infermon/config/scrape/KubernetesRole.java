package dev.infermon.config.scrape;

/** The Kubernetes object a {@code kubernetes_sd_config} turns into targets. */
public enum KubernetesRole {
  POD("pod"),
  SERVICE("service"),
  ENDPOINTS("endpoints"),
  ENDPOINTSLICE("endpointslice"),
  NODE("node"),
  INGRESS("ingress");

  private final String yamlName;

  KubernetesRole(String yamlName) {
    this.yamlName = yamlName;
  }

  public String yamlName() {
    return yamlName;
  }

  /** The role with this name ({@code endpoint} is accepted for {@code endpoints}), or null. */
  public static KubernetesRole fromYamlName(String name) {
    if (name.equals("endpoint")) {
      return ENDPOINTS;
    }
    for (KubernetesRole r : values()) {
      if (r.yamlName.equals(name)) {
        return r;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return yamlName;
  }
}
