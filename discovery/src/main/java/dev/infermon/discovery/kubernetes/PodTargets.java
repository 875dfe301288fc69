package dev.infermon.discovery.kubernetes;

import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a pod into the target group Prometheus's {@code kubernetes_sd_configs} role {@code pod}
 * produces ({@code discovery/kubernetes/pod.go}): source {@code pod/<namespace>/<name>}; group
 * labels {@code __meta_kubernetes_namespace}, {@code __meta_kubernetes_pod_name}, {@code _ip},
 * {@code _ready}, {@code _phase}, {@code _node_name}, {@code _host_ip}, {@code _uid}, {@code
 * _controller_kind}, {@code _controller_name}, {@code _label_<name>}, {@code _labelpresent_<name>},
 * {@code _annotation_<name>}, {@code _annotationpresent_<name>}; one target per container port
 * (init containers included) with {@code __address__}, {@code _container_name}, {@code
 * _container_id}, {@code _container_image}, {@code _container_port_name}, {@code
 * _container_port_number}, {@code _container_port_protocol}, {@code _container_init}, and one
 * port-less target per container without ports. A pod without an IP yields an empty group.
 *
 * <p>Stateless and thread-safe.
 */
public final class PodTargets {
  static final String META = DiscoveryLabels.META_PREFIX + "kubernetes_";
  static final String NAMESPACE = META + "namespace";
  static final String POD = META + "pod_";

  private PodTargets() {}

  /** The group's source for a pod. */
  public static String source(String namespace, String name) {
    return "pod/" + namespace + "/" + name;
  }

  /** The pod's target group, as Prometheus builds it. */
  public static TargetGroup group(Pod pod) {
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || ip.isEmpty()) {
      return TargetGroup.empty(source(ns, name));
    }
    Labels.Builder gl = Labels.builder();
    gl.set(NAMESPACE, nz(ns));
    gl.set(POD + "name", nz(name));
    gl.set(POD + "ip", ip);
    gl.set(POD + "ready", ready(pod));
    gl.set(POD + "phase", nz(pod.getStatus().getPhase()));
    gl.set(POD + "node_name", nz(pod.getSpec() == null ? null : pod.getSpec().getNodeName()));
    gl.set(POD + "host_ip", nz(pod.getStatus().getHostIP()));
    gl.set(POD + "uid", nz(pod.getMetadata().getUid()));
    OwnerReference controller = controllerOf(pod);
    if (controller != null) {
      gl.set(POD + "controller_kind", nz(controller.getKind()));
      gl.set(POD + "controller_name", nz(controller.getName()));
    }
    addMap(gl, "label", pod.getMetadata().getLabels());
    addMap(gl, "annotation", pod.getMetadata().getAnnotations());

    List<Labels> targets = new ArrayList<>();
    List<Container> containers = new ArrayList<>();
    int regular = 0;
    if (pod.getSpec() != null) {
      containers.addAll(pod.getSpec().getContainers());
      regular = containers.size();
      containers.addAll(pod.getSpec().getInitContainers());
    }
    for (int i = 0; i < containers.size(); i++) {
      Container c = containers.get(i);
      boolean init = i >= regular;
      List<ContainerStatus> statuses =
          init
              ? pod.getStatus().getInitContainerStatuses()
              : pod.getStatus().getContainerStatuses();
      String id = containerId(statuses, c.getName());
      if (c.getPorts() == null || c.getPorts().isEmpty()) {
        targets.add(
            Labels.builder()
                .set(DiscoveryLabels.ADDRESS, ip)
                .set(POD + "container_name", nz(c.getName()))
                .set(POD + "container_id", id)
                .set(POD + "container_image", nz(c.getImage()))
                .set(POD + "container_init", Boolean.toString(init))
                .build());
        continue;
      }
      for (ContainerPort p : c.getPorts()) {
        String port = p.getContainerPort() == null ? "0" : Integer.toString(p.getContainerPort());
        targets.add(
            Labels.builder()
                .set(DiscoveryLabels.ADDRESS, joinHostPort(ip, port))
                .set(POD + "container_name", nz(c.getName()))
                .set(POD + "container_id", id)
                .set(POD + "container_image", nz(c.getImage()))
                .set(POD + "container_port_number", port)
                .set(POD + "container_port_name", nz(p.getName()))
                .set(POD + "container_port_protocol", nz(p.getProtocol()))
                .set(POD + "container_init", Boolean.toString(init))
                .build());
      }
    }
    return new TargetGroup(source(ns, name), targets, gl.build());
  }

  /** Go's {@code net.JoinHostPort}: brackets around IPv6 hosts. */
  static String joinHostPort(String host, String port) {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }

  private static void addMap(Labels.Builder b, String kind, Map<String, String> m) {
    if (m == null) {
      return;
    }
    for (Map.Entry<String, String> e : m.entrySet()) {
      String ln = DiscoveryLabels.sanitize(e.getKey());
      b.set(POD + kind + "_" + ln, nz(e.getValue()));
      b.set(POD + kind + "present_" + ln, "true");
    }
  }

  private static String ready(Pod pod) {
    if (pod.getStatus().getConditions() != null) {
      for (PodCondition c : pod.getStatus().getConditions()) {
        if ("Ready".equals(c.getType())) {
          return nz(c.getStatus()).toLowerCase(Locale.ROOT);
        }
      }
    }
    return "unknown";
  }

  private static OwnerReference controllerOf(Pod pod) {
    List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    if (refs != null) {
      for (OwnerReference r : refs) {
        if (Boolean.TRUE.equals(r.getController())) {
          return r;
        }
      }
    }
    return null;
  }

  private static String containerId(List<ContainerStatus> statuses, String name) {
    if (statuses != null) {
      for (ContainerStatus s : statuses) {
        if (s.getName() != null && s.getName().equals(name)) {
          return nz(s.getContainerID());
        }
      }
    }
    return "";
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }
}
