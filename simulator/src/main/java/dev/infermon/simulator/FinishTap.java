package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;

/**
 * An engine's metrics listener that also tells its pod of each finished request, so a router in
 * front can time the same requests the engine served (a router measures latency per request, which
 * no engine page carries at a router's bucket bounds).
 */
final class FinishTap implements EngineListener {
  private final EngineListener inner;
  private final InferencePod pod;

  FinishTap(EngineListener inner, InferencePod pod) {
    this.inner = inner;
    this.pod = pod;
  }

  @Override
  public void onQueued(Request r, double now) {
    inner.onQueued(r, now);
  }

  @Override
  public void onScheduled(Request r, double now, int queried, int hit) {
    inner.onScheduled(r, now, queried, hit);
  }

  @Override
  public void onIteration(
      double now, double duration, int steps, int prefillTokens, int decodeTokens, int batch) {
    inner.onIteration(now, duration, steps, prefillTokens, decodeTokens, batch);
  }

  @Override
  public void onFirstToken(Request r, double now) {
    inner.onFirstToken(r, now);
  }

  @Override
  public void onDecode(int decodeSeqs, double interval) {
    inner.onDecode(decodeSeqs, interval);
  }

  @Override
  public void onPreempted(Request r, double now) {
    inner.onPreempted(r, now);
  }

  @Override
  public void onFinished(Request r, FinishReason reason, double now) {
    inner.onFinished(r, reason, now);
    pod.finished(r, reason, now);
  }
}
