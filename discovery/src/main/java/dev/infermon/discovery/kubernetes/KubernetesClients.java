package dev.infermon.discovery.kubernetes;

import dev.infermon.config.scrape.Authorization;
import dev.infermon.config.scrape.HttpClientConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds Kubernetes clients the way Prometheus picks its credentials: an explicit {@code
 * api_server} (with the config's bearer token and TLS settings), else a {@code kubeconfig_file},
 * else the in-cluster service account (fabric8's auto-configuration, which also falls back to
 * {@code ~/.kube/config} outside a cluster).
 */
public final class KubernetesClients {
  private KubernetesClients() {}

  /**
   * A client for these settings; the caller closes it.
   *
   * @param apiServer the API server URL, or empty
   * @param kubeconfigFile a kubeconfig path, or empty
   * @param http bearer token and TLS for {@code apiServer}
   */
  public static KubernetesClient create(
      String apiServer, String kubeconfigFile, HttpClientConfig http) {
    Config config;
    if (apiServer != null && !apiServer.isEmpty()) {
      ConfigBuilder b = new ConfigBuilder(Config.empty()).withMasterUrl(apiServer);
      if (http != null) {
        if (http.authorization().isPresent()) {
          Authorization a = http.authorization().get();
          String token = a.credentials().reveal();
          if (token.isEmpty() && !a.credentialsFile().isEmpty()) {
            token = read(a.credentialsFile()).trim();
          }
          b.withOauthToken(token);
        }
        if (http.tlsConfig().insecureSkipVerify()) {
          b.withTrustCerts(true).withDisableHostnameVerification(true);
        }
        if (!http.tlsConfig().caFile().isEmpty()) {
          b.withCaCertFile(http.tlsConfig().caFile());
        }
      }
      config = b.build();
    } else if (kubeconfigFile != null && !kubeconfigFile.isEmpty()) {
      config = Config.fromKubeconfig(new File(kubeconfigFile));
    } else {
      config = Config.autoConfigure(null);
    }
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** The namespace of the service account infermon runs as, or "default" outside a cluster. */
  public static String ownNamespace(KubernetesClient client) {
    Path p = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");
    if (Files.isReadable(p)) {
      return read(p.toString()).trim();
    }
    String ns = client.getNamespace();
    return ns == null || ns.isEmpty() ? "default" : ns;
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
