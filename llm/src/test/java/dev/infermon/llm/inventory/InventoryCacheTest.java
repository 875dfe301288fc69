package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The inventory is read once per time, window and period, shared by concurrent requests. */
class InventoryCacheTest {
  private static final long W = 600_000;

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final AtomicInteger reads = new AtomicInteger();

  private InventoryCache cache(long maxAgeNanos) {
    return new InventoryCache(
        (t, w) -> {
          reads.incrementAndGet();
          return new Inventory(List.of());
        },
        clock::get,
        maxAgeNanos);
  }

  @Test
  void reusesOneReadForTheSameTimeWithinTheBound() {
    InventoryCache c = cache(10);
    Inventory a = c.get(5000, W);
    clock.addAndGet(10);
    assertThat(c.get(5000, W)).isSameAs(a);
    assertThat(reads).hasValue(1);
    clock.addAndGet(1); // older than the bound: read again
    assertThat(c.get(5000, W)).isNotSameAs(a);
    assertThat(reads).hasValue(2);
    c.get(6000, W); // another time: read again, never the other time's answer
    assertThat(reads).hasValue(3);
  }

  @Test
  void eachWindowIsItsOwnEntryNeverAnotherWindowsAnswer() {
    InventoryCache c = cache(10);
    Inventory dashboard = c.get(5000, W);
    Inventory lint = c.get(5000, 3_600_000);
    assertThat(lint).isNotSameAs(dashboard);
    assertThat(reads).hasValue(2);
    // asking for one window keeps the other's entry
    assertThat(c.get(5000, W)).isSameAs(dashboard);
    assertThat(c.get(5000, 3_600_000)).isSameAs(lint);
    assertThat(reads).hasValue(2);
  }

  @Test
  void theLeastRecentlyUsedWindowIsDroppedBeyondTheBound() {
    InventoryCache c = cache(10);
    Inventory first = c.get(5000, 1);
    for (long w = 2; w <= InventoryCache.WINDOWS; w++) {
      c.get(5000, w);
    }
    assertThat(c.get(5000, 1)).isSameAs(first); // still kept, and now the most recent
    assertThat(reads).hasValue(InventoryCache.WINDOWS);
    c.get(5000, InventoryCache.WINDOWS + 1); // drops window 2, the least recently used
    assertThat(c.get(5000, 1)).isSameAs(first);
    c.get(5000, 2);
    assertThat(reads).hasValue(InventoryCache.WINDOWS + 2);
  }

  @Test
  void zeroAgeReadsEveryTime() {
    InventoryCache c = cache(0);
    clock.incrementAndGet();
    c.get(1, W);
    clock.incrementAndGet();
    c.get(1, W);
    assertThat(reads).hasValue(2);
  }

  @Test
  void concurrentRequestsShareOneRead() throws Exception {
    CountDownLatch inRead = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    InventoryCache c =
        new InventoryCache(
            (t, w) -> {
              reads.incrementAndGet();
              inRead.countDown();
              try {
                release.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return new Inventory(List.of());
            },
            clock::get,
            TimeUnit.SECONDS.toNanos(10));
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<Inventory>> got = new ArrayList<>();
      got.add(pool.submit(() -> c.get(42, W)));
      assertThat(inRead.await(10, TimeUnit.SECONDS)).isTrue();
      for (int i = 0; i < 5; i++) {
        got.add(pool.submit(() -> c.get(42, W)));
      }
      Thread.sleep(50); // let them reach the wait
      release.countDown();
      Inventory first = got.get(0).get(10, TimeUnit.SECONDS);
      for (Future<Inventory> f : got) {
        assertThat(f.get(10, TimeUnit.SECONDS)).isSameAs(first);
      }
      assertThat(reads).hasValue(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedReadIsNotKept() {
    AtomicInteger calls = new AtomicInteger();
    InventoryCache c =
        new InventoryCache(
            (t, w) -> {
              if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("storage closed");
              }
              return new Inventory(List.of());
            },
            clock::get,
            TimeUnit.SECONDS.toNanos(10));
    assertThatThrownBy(() -> c.get(7, W)).hasMessage("storage closed");
    assertThat(c.get(7, W)).isNotNull();
    assertThat(calls).hasValue(2);
  }
}
