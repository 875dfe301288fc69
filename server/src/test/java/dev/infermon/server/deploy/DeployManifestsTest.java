package dev.infermon.server.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.Config;
import dev.infermon.config.ConfigLoader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/ deserializes with fabric8's Kubernetes model, its pieces fit together (names, labels,
 * ports, RBAC), and the configuration in its ConfigMap passes infermon's own validation.
 */
class DeployManifestsTest {
  private static final Path MANIFEST = Path.of("..", "deploy", "infermon.yaml");
  private static List<HasMetadata> objects;

  @BeforeAll
  static void load() throws Exception {
    KubernetesSerialization ser = new KubernetesSerialization();
    objects = new ArrayList<>();
    for (String doc : Files.readString(MANIFEST).split("(?m)^---\\s*$")) {
      if (doc.lines().anyMatch(l -> l.startsWith("kind:"))) {
        objects.add(ser.unmarshal(doc));
      }
    }
  }

  private static <T extends HasMetadata> T one(Class<T> type) {
    List<T> found = new ArrayList<>();
    for (HasMetadata o : objects) {
      if (type.isInstance(o)) {
        found.add(type.cast(o));
      }
    }
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  @Test
  void everyObjectHasAKnownKindAndAName() {
    assertThat(objects)
        .extracting(HasMetadata::getKind)
        .containsExactlyInAnyOrder(
            "ServiceAccount",
            "ClusterRole",
            "ClusterRoleBinding",
            "ConfigMap",
            "Service",
            "StatefulSet");
    for (HasMetadata o : objects) {
      assertThat(o.getMetadata().getName()).as(o.getKind()).isNotBlank();
    }
  }

  @Test
  void theServiceAccountMayWatchPods() {
    ServiceAccount sa = one(ServiceAccount.class);
    ClusterRole role = one(ClusterRole.class);
    PolicyRule rule = role.getRules().get(0);
    assertThat(rule.getApiGroups()).containsExactly("");
    assertThat(rule.getResources()).containsExactly("pods");
    assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
    ClusterRoleBinding b = one(ClusterRoleBinding.class);
    assertThat(b.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(b.getSubjects().get(0).getName()).isEqualTo(sa.getMetadata().getName());
    assertThat(b.getSubjects().get(0).getNamespace()).isEqualTo(sa.getMetadata().getNamespace());
  }

  @Test
  void theStatefulSetRunsServeWithAVolumeProbesAndTheConfig() {
    StatefulSet s = one(StatefulSet.class);
    var pod = s.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName())
        .isEqualTo(one(ServiceAccount.class).getMetadata().getName());
    Container c = pod.getContainers().get(0);
    assertThat(c.getArgs()).first().isEqualTo("serve");
    assertThat(c.getArgs()).contains("--storage.tsdb.path=/data");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/-/ready");
    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/-/healthy");
    assertThat(s.getSpec().getVolumeClaimTemplates())
        .extracting(v -> v.getMetadata().getName())
        .containsExactly("data");
    assertThat(c.getVolumeMounts())
        .anyMatch(m -> m.getName().equals("data") && m.getMountPath().equals("/data"));
    String cm =
        pod.getVolumes().stream()
            .filter(v -> v.getConfigMap() != null)
            .findFirst()
            .orElseThrow()
            .getConfigMap()
            .getName();
    assertThat(cm).isEqualTo(one(ConfigMap.class).getMetadata().getName());
    assertThat(s.getSpec().getSelector().getMatchLabels())
        .isEqualTo(s.getSpec().getTemplate().getMetadata().getLabels());
  }

  @Test
  void theServiceSelectsThePodsAndTheirPort() {
    Service svc = one(Service.class);
    StatefulSet s = one(StatefulSet.class);
    Map<String, String> podLabels = s.getSpec().getTemplate().getMetadata().getLabels();
    assertThat(podLabels).containsAllEntriesOf(svc.getSpec().getSelector());
    String target = svc.getSpec().getPorts().get(0).getTargetPort().getStrVal();
    assertThat(s.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts())
        .anyMatch(p -> p.getName().equals(target) && p.getContainerPort() == 9090);
  }

  @Test
  void theConfigMapHoldsAValidConfiguration() throws Exception {
    String yaml = one(ConfigMap.class).getData().get("infermon.yml");
    Config c = ConfigLoader.create().parse(yaml, "deploy ConfigMap infermon.yml");
    assertThat(c.storage().tsdb().path()).isEqualTo("/data");
    assertThat(c.inference().enabled()).isTrue();
  }
}
