package dev.infermon.simulator.router;

import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What llm-d's EPP sees of a prefill/decode request: one request, routed to the decode pod (the P/D
 * profile handler's primary profile, pd_profile_handler.go ProcessResults @ ebab6879), whose
 * routing sidecar sends it to the prefill pod without streaming, waits for the answer, then sends
 * it to its own engine and streams that answer back (pkg/sidecar/proxy/connector_nixlv2.go: the
 * prefill stage, then the decode stage). So the first byte the EPP times comes after the prefill,
 * the KV transfer and the decode side's first step; a prefill that fails is answered with its error
 * at once (connector_nixlv2.go's prefill error branch).
 *
 * <p>The simulated sides of a pair see the same requests (their arrival key is shared: same id,
 * same arrival), each from that arrival. This joins a request's two finishes and composes them as
 * the sidecar chains them: the prefill side's time, then the decode side's (its KV transfer, queue
 * and first step to its first token; its last token to the end). A request either side aborted
 * never reached the end of its stream and is not timed. Not thread-safe.
 */
final class PdPairs {
  /** How long a finish waits for its other side's, seconds: beyond any client's timeout. */
  private static final double FORGET_SECONDS = 600;

  /** A request's identity on both sides of a pair. */
  private record Key(long id, double arrival) {}

  /**
   * One side's finish: its seconds from arrival to first token (its end when it had none, {@code
   * started} false) and to the end, and its fate.
   */
  record Side(double first, double end, boolean started, FinishReason reason, double at) {}

  /** Both sides' finishes of one request. */
  record Joined(Side prefill, Side decode) {}

  /** What the user saw of one request, seconds from its arrival at the EPP. */
  record Timed(double ttft, double duration) {}

  private final Map<Key, Side> prefills = new LinkedHashMap<>();
  private final Map<Key, Side> decodes = new LinkedHashMap<>();

  /**
   * Request {@code r} left the {@code prefill} (else the decode) side at {@code now}; returns what
   * the user saw of it once both sides have finished it, else null.
   */
  Timed finished(boolean prefill, Request r, FinishReason reason, double now) {
    Joined j = join(prefill, r, reason, now);
    return j == null ? null : compose(j.prefill(), j.decode());
  }

  /**
   * Request {@code r} left the {@code prefill} (else the decode) side at {@code now}; returns both
   * sides' finishes once both have finished it, else null.
   */
  Joined join(boolean prefill, Request r, FinishReason reason, double now) {
    Key key = new Key(r.id(), r.arrival());
    double end = now - r.arrival();
    double first = Double.isNaN(r.firstTokenAt()) ? end : r.firstTokenAt() - r.arrival();
    Side side = new Side(first, end, !Double.isNaN(r.firstTokenAt()), reason, now);
    Map<Key, Side> mine = prefill ? prefills : decodes;
    Map<Key, Side> other = prefill ? decodes : prefills;
    forget(mine, now);
    forget(other, now);
    Side peer = other.remove(key);
    if (peer == null) {
      mine.put(key, side);
      return null;
    }
    return new Joined(prefill ? side : peer, prefill ? peer : side);
  }

  private static Timed compose(Side p, Side d) {
    if (p.reason() == FinishReason.ABORT || d.reason() == FinishReason.ABORT) {
      return null;
    }
    if (p.reason() == FinishReason.ERROR) {
      return new Timed(p.end(), p.end());
    }
    return new Timed(p.end() + d.first(), p.end() + d.end());
  }

  /**
   * Drops the finishes whose other side never came: after a restart on one side the two draw
   * different requests (a restart reseeds its engines), which no longer pair.
   */
  private static void forget(Map<Key, Side> waiting, double now) {
    Iterator<Side> it = waiting.values().iterator();
    while (it.hasNext() && it.next().at() < now - FORGET_SECONDS) {
      it.remove();
    }
  }
}
