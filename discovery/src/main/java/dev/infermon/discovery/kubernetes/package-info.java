/**
 * Kubernetes discovery with the fabric8 client: {@link dev.infermon.discovery.kubernetes.PodWatch}
 * (informers: list, watch, reconnect), {@link dev.infermon.discovery.kubernetes.PodTargets}
 * (Prometheus's role {@code pod} labels, exactly as {@code discovery/kubernetes/pod.go} names them)
 * and {@link dev.infermon.discovery.kubernetes.PodDiscoverer}, which joins the two and is reused by
 * the inference discovery with other labels.
 */
package dev.infermon.discovery.kubernetes;
