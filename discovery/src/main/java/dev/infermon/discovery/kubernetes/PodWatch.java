package dev.infermon.discovery.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pod informers (list, then watch; relist and rewatch after the watch drops or the API server goes
 * away, with fabric8's backoff) over one or several namespaces, or all of them, filtered by a label
 * and a field selector on the server. Every event becomes a call to the {@link Listener} with the
 * pod's current state, so a consumer rebuilds the pod's targets from scratch each time.
 *
 * <p>Threading: each namespace's informer calls the listener from its own thread, one event at a
 * time; the listener must be thread-safe when several namespaces are watched.
 */
public final class PodWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PodWatch.class);

  /** Receives pod events. */
  public interface Listener {
    /** A pod was added or changed; {@code pod} is its current state. */
    void changed(Pod pod);

    /** A pod was deleted. */
    void deleted(String namespace, String name);
  }

  private final KubernetesClient client;
  private final List<String> namespaces;
  private final String labelSelector;
  private final String fieldSelector;
  private final List<SharedIndexInformer<Pod>> informers = new ArrayList<>();
  private final List<FilterWatchListDeletable<Pod, PodList, PodResource>> scopes =
      new ArrayList<>();
  private final List<Boolean> watching = new ArrayList<>();
  // Pods delivered to the listener and their resource versions: what a relist reconciles against.
  private final Map<String, String> known = new java.util.HashMap<>();
  private final long relistMs;
  private java.util.concurrent.ScheduledExecutorService reconciler;
  private Listener listener;

  /**
   * A watch over pods.
   *
   * @param namespaces the namespaces to watch; empty means all
   * @param labelSelector a Kubernetes label selector ({@code a=b,c}), or empty
   * @param fieldSelector a Kubernetes field selector ({@code spec.nodeName=n}), or empty
   */
  public PodWatch(
      KubernetesClient client,
      List<String> namespaces,
      String labelSelector,
      String fieldSelector) {
    this(client, namespaces, labelSelector, fieldSelector, DEFAULT_RELIST.toMillis());
  }

  /** How often pods are listed afresh even when the watch looks healthy. */
  public static final java.time.Duration DEFAULT_RELIST = java.time.Duration.ofMinutes(5);

  /**
   * A watch over pods that also lists them afresh every {@code relistMs}, and right after a watch
   * reconnects.
   */
  public PodWatch(
      KubernetesClient client,
      List<String> namespaces,
      String labelSelector,
      String fieldSelector,
      long relistMs) {
    if (relistMs <= 0) {
      throw new IllegalArgumentException("relist interval must be positive: " + relistMs);
    }
    this.relistMs = relistMs;
    this.client = client;
    this.namespaces = List.copyOf(namespaces);
    this.labelSelector = labelSelector == null ? "" : labelSelector;
    this.fieldSelector = fieldSelector == null ? "" : fieldSelector;
    fields(this.fieldSelector); // validate early
  }

  /** Starts the informers; events flow to {@code listener} from now on. */
  public synchronized void start(Listener listener) {
    this.listener = listener;
    ResourceEventHandler<Pod> handler =
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Pod pod) {
            deliver(pod);
          }

          @Override
          public void onUpdate(Pod oldPod, Pod newPod) {
            deliver(newPod);
          }

          @Override
          public void onDelete(Pod pod, boolean finalStateUnknown) {
            gone(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
          }
        };
    List<String> nsList =
        namespaces.isEmpty() ? java.util.Collections.singletonList(null) : namespaces;
    for (String ns : nsList) {
      FilterWatchListDeletable<Pod, PodList, PodResource> ops =
          ns == null ? client.pods().inAnyNamespace() : client.pods().inNamespace(ns);
      if (!labelSelector.isEmpty()) {
        ops = ops.withLabelSelector(labelSelector);
      }
      Map<String, String[]> f = fields(fieldSelector);
      for (Map.Entry<String, String[]> e : f.entrySet()) {
        ops =
            e.getValue()[0].equals("!=")
                ? ops.withoutField(e.getKey(), e.getValue()[1])
                : ops.withField(e.getKey(), e.getValue()[1]);
      }
      SharedIndexInformer<Pod> inf = ops.runnableInformer(0);
      inf.addEventHandler(handler);
      inf.exceptionHandler(
          (started, t) -> {
            // Keep trying: the API server may be restarting; fabric8 backs off between tries.
            log.warn(
                "pod watch ({}) failed, retrying: {}",
                ns == null ? "all namespaces" : ns,
                t.toString());
            return true;
          });
      inf.start();
      informers.add(inf);
      scopes.add(ops);
      watching.add(Boolean.FALSE);
    }
    reconciler =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "pod-watch-relist");
              t.setDaemon(true);
              return t;
            });
    reconciler.scheduleWithFixedDelay(
        this::checkWatches, 1, 1, java.util.concurrent.TimeUnit.SECONDS);
    reconciler.scheduleWithFixedDelay(
        this::relistAll, relistMs, relistMs, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  private static String key(String ns, String name) {
    return ns + "/" + name;
  }

  private synchronized void deliver(Pod pod) {
    known.put(
        key(pod.getMetadata().getNamespace(), pod.getMetadata().getName()),
        String.valueOf(pod.getMetadata().getResourceVersion()));
    try {
      listener.changed(pod);
    } catch (RuntimeException e) {
      log.error("pod listener failed", e);
    }
  }

  private synchronized void gone(String ns, String name) {
    known.remove(key(ns, name));
    try {
      listener.deleted(ns, name);
    } catch (RuntimeException e) {
      log.error("pod listener failed", e);
    }
  }

  /**
   * An informer that re-watches after a dropped connection resumes from its last resource version
   * and does not always list again; an API server (or a proxy in front of it) that lost the history
   * in between would then hide deletions. So after every reconnect, list afresh.
   */
  private synchronized void checkWatches() {
    for (int i = 0; i < informers.size(); i++) {
      boolean now = informers.get(i).isWatching();
      if (now && !watching.get(i) && informers.get(i).hasSynced()) {
        relist(i);
      }
      watching.set(i, now);
    }
  }

  private synchronized void relistAll() {
    for (int i = 0; i < scopes.size(); i++) {
      relist(i);
    }
  }

  /** Lists one scope and reconciles: pods not listed are deleted, changed ones re-delivered. */
  private synchronized void relist(int i) {
    List<Pod> pods;
    try {
      pods = scopes.get(i).list().getItems();
    } catch (RuntimeException e) {
      log.warn("relisting pods failed: {}", e.toString());
      return;
    }
    String ns = namespaces.isEmpty() ? null : namespaces.get(i);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Pod p : pods) {
      String k = key(p.getMetadata().getNamespace(), p.getMetadata().getName());
      seen.add(k);
      if (!String.valueOf(p.getMetadata().getResourceVersion()).equals(known.get(k))) {
        deliver(p);
      }
    }
    for (String k : new ArrayList<>(known.keySet())) {
      int slash = k.indexOf('/');
      String kns = k.substring(0, slash);
      if ((ns == null || ns.equals(kns)) && !seen.contains(k)) {
        gone(kns, k.substring(slash + 1));
      }
    }
  }

  /** True once every informer has listed its pods. */
  public synchronized boolean hasSynced() {
    for (SharedIndexInformer<Pod> i : informers) {
      if (!i.hasSynced()) {
        return false;
      }
    }
    return !informers.isEmpty();
  }

  /** Stops the informers. */
  @Override
  public synchronized void close() {
    if (reconciler != null) {
      reconciler.shutdownNow();
    }
    for (SharedIndexInformer<Pod> i : informers) {
      i.stop();
    }
    informers.clear();
  }

  /** Parses {@code a=b,c!=d} into name to {operator, value}. */
  static Map<String, String[]> fields(String selector) {
    Map<String, String[]> out = new LinkedHashMap<>();
    if (selector.isBlank()) {
      return out;
    }
    for (String part : selector.split(",")) {
      String p = part.trim();
      int ne = p.indexOf("!=");
      int eq = p.indexOf('=');
      if (ne > 0) {
        out.put(p.substring(0, ne).trim(), new String[] {"!=", p.substring(ne + 2).trim()});
      } else if (eq > 0) {
        int skip = p.startsWith("==", eq) ? 2 : 1;
        out.put(p.substring(0, eq).trim(), new String[] {"=", p.substring(eq + skip).trim()});
      } else {
        throw new IllegalArgumentException("invalid field selector \"" + selector + "\"");
      }
    }
    return out;
  }
}
