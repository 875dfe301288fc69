package dev.infermon.discovery.kubernetes;

import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.TargetSink;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * A {@link Discoverer} over a {@link PodWatch}: every pod event rebuilds that pod's group with a
 * mapping function (Prometheus's role {@code pod} labels, or infermon's inference labels), and a
 * deleted pod sends the empty group for its source, so its targets go away and their series go
 * stale.
 */
public final class PodDiscoverer implements Discoverer {
  private final PodWatch watch;
  private final Function<Pod, TargetGroup> mapping;
  private final CountDownLatch stopped = new CountDownLatch(1);

  /**
   * A discoverer mapping each pod of {@code watch} with {@code mapping}, which must return a group
   * with source {@link PodTargets#source(String, String)} of the pod (empty when the pod is not a
   * target).
   */
  public PodDiscoverer(PodWatch watch, Function<Pod, TargetGroup> mapping) {
    this.watch = Objects.requireNonNull(watch, "watch");
    this.mapping = Objects.requireNonNull(mapping, "mapping");
  }

  @Override
  public void run(TargetSink sink) {
    if (stopped.getCount() == 0) {
      return;
    }
    watch.start(
        new PodWatch.Listener() {
          @Override
          public void changed(Pod pod) {
            sink.update(List.of(mapping.apply(pod)));
          }

          @Override
          public void deleted(String namespace, String name) {
            sink.update(List.of(TargetGroup.empty(PodTargets.source(namespace, name))));
          }
        });
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      watch.close();
    }
  }

  @Override
  public void stop() {
    stopped.countDown();
  }
}
