package dev.infermon.scrape;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into one array, refusing more than {@code cap} bytes: past the cap it
 * cancels the subscription (the connection is dropped) and fails with {@link TooLarge}, so an
 * over-limit body is never read whole.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<LimitedBody> {
  /** The body passed the cap. */
  static final class TooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLarge() {
      super("body size limit exceeded", null, false, false);
    }
  }

  private final long cap;
  private final CompletableFuture<LimitedBody> done = new CompletableFuture<>();
  private Flow.Subscription subscription;
  private byte[] bytes;
  private int length;

  LimitedBody(long cap, int initialCapacity) {
    this.cap = cap;
    this.bytes = new byte[Math.max(1024, initialCapacity)];
  }

  byte[] bytes() {
    return bytes;
  }

  int length() {
    return length;
  }

  @Override
  public CompletionStage<LimitedBody> getBody() {
    return done;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    s.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (done.isDone()) {
      return;
    }
    for (ByteBuffer b : items) {
      int n = b.remaining();
      if ((long) length + n > cap) {
        subscription.cancel();
        done.completeExceptionally(new TooLarge());
        return;
      }
      if (length + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, (int) Math.min(cap, Math.max(bytes.length * 2L, length + n)));
      }
      b.get(bytes, length, n);
      length += n;
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable t) {
    done.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    done.complete(this);
  }
}
