package dev.infermon.discovery;

import java.util.List;

/**
 * Where a {@link Discoverer} sends what it finds. Each call carries the groups that changed since
 * the last call; a group replaces the provider's earlier group with the same source, and an empty
 * group removes it. A provider may send its initial state in one call or in many.
 *
 * <p>Threading: implementations are thread-safe and return quickly (they must not block on the
 * scrape side); the list is not modified after the call and may be kept.
 */
@FunctionalInterface
public interface TargetSink {
  /** Receives changed groups. */
  void update(List<TargetGroup> groups);
}
