package dev.infermon.discovery;

/**
 * A source of targets: Prometheus's {@code discovery.Discoverer} ({@code Run(ctx, up)}), with
 * {@link #stop()} in place of the context.
 *
 * <p>Threading: {@link #run(TargetSink)} is called once, on a thread the caller dedicates to it,
 * and blocks until {@link #stop()} is called (from any thread) or the provider cannot go on; it
 * sends updates to the sink from that thread or from threads of its own. After {@code run} returns,
 * the provider sends nothing more. {@code stop} is idempotent and may be called before {@code run}.
 *
 * <p>Errors: a provider never throws for bad input from outside (an unreadable file, an API server
 * that is down); it logs, keeps the last good targets, and retries.
 */
public interface Discoverer {
  /** Discovers targets into {@code sink} until stopped. */
  void run(TargetSink sink);

  /** Asks {@link #run(TargetSink)} to return and releases the provider's resources. */
  void stop();
}
