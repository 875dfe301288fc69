package dev.infermon.discovery.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;

/** Pods as a cluster would report them, for tests. */
public final class Pods {
  private Pods() {}

  /** A running, ready pod with one container exposing {@code portName:port}. */
  public static Pod running(
      String ns, String name, String ip, String portName, int port, Map<String, String> labels) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .withUid("uid-" + name)
        .withLabels(labels)
        .addToAnnotations("prometheus.io/scrape", "true")
        .addNewOwnerReference()
        .withApiVersion("apps/v1")
        .withKind("ReplicaSet")
        .withName(name + "-rs")
        .withUid("rs-uid")
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .withNodeName("node-1")
        .addNewContainer()
        .withName("engine")
        .withImage("vllm/vllm-openai:v0.11.0")
        .addNewPort()
        .withName(portName)
        .withContainerPort(port)
        .withProtocol("TCP")
        .endPort()
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withPodIP(ip)
        .withHostIP("192.0.2.1")
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .addNewContainerStatus()
        .withName("engine")
        .withContainerID("containerd://abc")
        .endContainerStatus()
        .endStatus()
        .build();
  }
}
