/**
 * Kubernetes discovery with the fabric8 client, role {@code pod} only (other roles are refused,
 * naming the role): {@link dev.infermon.discovery.kubernetes.PodWatch} (informers: list, watch,
 * reconnect, plus a fresh list after every reconnect and every 5 minutes, reconciled, so deletions
 * missed while disconnected are seen), {@link dev.infermon.discovery.kubernetes.PodTargets}
 * (Prometheus's role {@code pod} labels, exactly as {@code discovery/kubernetes/pod.go} names them)
 * and {@link dev.infermon.discovery.kubernetes.PodDiscoverer}, which joins the two and is reused by
 * the inference discovery with other labels.
 */
package dev.infermon.discovery.kubernetes;
