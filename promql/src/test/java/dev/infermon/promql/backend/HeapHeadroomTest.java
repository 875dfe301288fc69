package dev.infermon.promql.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.Test;

/**
 * The heap's headroom: roomy ratios while any evaluation runs, the launcher's tight ones back after
 * the idle delay, nothing at all for a JVM that was not started tight; the flags are set in the
 * order the JVM accepts.
 */
class HeapHeadroomTest {
  /** A JVM's flags as the launcher sets them, checked as HotSpot checks them on each set. */
  static final class FakeVm implements HeapHeadroom.Vm {
    final Map<String, Integer> flags = new LinkedHashMap<>();
    final List<String> sets = new ArrayList<>();

    FakeVm(int min, int max) {
      flags.put("MinHeapFreeRatio", min);
      flags.put("MaxHeapFreeRatio", max);
    }

    @Override
    public int flag(String name) {
      return flags.get(name);
    }

    @Override
    public void setFlag(String name, int value) {
      Map<String, Integer> next = new LinkedHashMap<>(flags);
      next.put(name, value);
      if (next.get("MinHeapFreeRatio") > next.get("MaxHeapFreeRatio")) {
        throw new IllegalArgumentException(name + "=" + value + ": min above max");
      }
      flags.putAll(next);
      sets.add(name + "=" + value);
    }
  }

  /** Runs what is scheduled when the test says the delay has passed. */
  static final class ManualTimer implements HeapHeadroom.Timer {
    final List<Runnable> tasks = new ArrayList<>();
    final List<Long> delays = new ArrayList<>();

    @Override
    public ScheduledFuture<?> schedule(Runnable r, long delayMs) {
      tasks.add(r);
      delays.add(delayMs);
      return new CancellableTask(r, this);
    }

    void elapse() {
      List<Runnable> due = new ArrayList<>(tasks);
      tasks.clear();
      due.forEach(Runnable::run);
    }
  }

  record CancellableTask(Runnable task, ManualTimer timer) implements ScheduledFuture<Object> {
    @Override
    public boolean cancel(boolean interrupt) {
      return timer.tasks.remove(task);
    }

    @Override
    public long getDelay(java.util.concurrent.TimeUnit unit) {
      return 0;
    }

    @Override
    public int compareTo(java.util.concurrent.Delayed o) {
      return 0;
    }

    @Override
    public boolean isCancelled() {
      return !timer.tasks.contains(task);
    }

    @Override
    public boolean isDone() {
      return false;
    }

    @Override
    public Object get() {
      return null;
    }

    @Override
    public Object get(long t, java.util.concurrent.TimeUnit u) {
      return null;
    }
  }

  @Test
  void roomyWhileEvaluatingTightAgainOnceIdle() {
    FakeVm vm = new FakeVm(5, 10);
    ManualTimer timer = new ManualTimer();
    HeapHeadroom h = new HeapHeadroom(vm, timer);
    assertThat(h.active()).isTrue();
    h.enter();
    h.enter();
    assertThat(vm.flags)
        .containsEntry("MinHeapFreeRatio", 40)
        .containsEntry("MaxHeapFreeRatio", 70);
    // raising: the maximum first (min 40 above max 10 would be refused)
    assertThat(vm.sets).containsExactly("MaxHeapFreeRatio=70", "MinHeapFreeRatio=40");
    h.exit();
    assertThat(timer.tasks).as("one evaluation still in flight").isEmpty();
    h.exit();
    assertThat(timer.delays).containsExactly(HeapHeadroom.IDLE_MS);
    assertThat(vm.flags).as("roomy until the delay passed").containsEntry("MinHeapFreeRatio", 40);
    timer.elapse();
    assertThat(vm.flags).containsEntry("MinHeapFreeRatio", 5).containsEntry("MaxHeapFreeRatio", 10);
    // lowering: the minimum first
    assertThat(vm.sets.subList(2, 4)).containsExactly("MinHeapFreeRatio=5", "MaxHeapFreeRatio=10");
  }

  @Test
  void anEvaluationDuringTheIdleDelayKeepsTheRoom() {
    FakeVm vm = new FakeVm(5, 10);
    ManualTimer timer = new ManualTimer();
    HeapHeadroom h = new HeapHeadroom(vm, timer);
    h.enter();
    h.exit();
    h.enter(); // the next panel's query, before the delay passed: the restore is cancelled
    assertThat(timer.tasks).isEmpty();
    timer.elapse();
    assertThat(vm.flags).containsEntry("MinHeapFreeRatio", 40);
    assertThat(vm.sets).as("widened once").hasSize(2);
    h.exit();
    timer.elapse();
    assertThat(vm.flags).containsEntry("MaxHeapFreeRatio", 10);
    assertThat(vm.sets).hasSize(4);
  }

  @Test
  void theStacksEvaluationsHoldTheRoomAndABadQueryReleasesIt() {
    FakeVm vm = new FakeVm(5, 10);
    ManualTimer timer = new ManualTimer();
    HeadroomBackend b =
        new HeadroomBackend(
            new EmbeddedQueryBackend(new MemoryStorage(), new Engine(EngineOptions.DEFAULTS)),
            new HeapHeadroom(vm, timer));
    assertThat(b.rangeQuery("vector(1)", 0, 60_000, 15_000).value()).isNotNull();
    assertThat(vm.flags).containsEntry("MaxHeapFreeRatio", 70);
    assertThat(timer.tasks).as("idle again: the restore is scheduled").hasSize(1);
    assertThatThrownBy(() -> b.instantQuery("sum(", 0)).isInstanceOf(BadQueryException.class);
    assertThat(timer.tasks).as("the failed evaluation ended too").hasSize(1);
    timer.elapse();
    assertThat(vm.flags).containsEntry("MaxHeapFreeRatio", 10);
  }

  @Test
  void aJvmStartedWithItsOwnRatiosIsLeftAlone() {
    for (FakeVm vm : List.of(new FakeVm(40, 70), new FakeVm(20, 80), new FakeVm(50, 60))) {
      ManualTimer timer = new ManualTimer();
      HeapHeadroom h = new HeapHeadroom(vm, timer);
      assertThat(h.active()).as("%s", vm.flags).isFalse();
      h.enter();
      h.exit();
      timer.elapse();
      assertThat(vm.sets).isEmpty();
      assertThat(timer.tasks).isEmpty();
    }
  }

  @Test
  void theRunningJvmsFlagsAreManageableInTheOrderTheHeadroomSetsThem() {
    HeapHeadroom.JvmFlags jvm = new HeapHeadroom.JvmFlags();
    int min = jvm.flag("MinHeapFreeRatio");
    int max = jvm.flag("MaxHeapFreeRatio");
    try {
      jvm.setFlag("MinHeapFreeRatio", 5);
      jvm.setFlag("MaxHeapFreeRatio", 10);
      assertThat(jvm.flag("MaxHeapFreeRatio")).isEqualTo(10);
      assertThatThrownBy(() -> jvm.setFlag("MinHeapFreeRatio", 40))
          .as("the JVM refuses a minimum above the maximum: the order matters")
          .isInstanceOf(IllegalArgumentException.class);
      jvm.setFlag("MaxHeapFreeRatio", HeapHeadroom.ROOMY_MAX);
      jvm.setFlag("MinHeapFreeRatio", HeapHeadroom.ROOMY_MIN);
      assertThat(jvm.flag("MinHeapFreeRatio")).isEqualTo(HeapHeadroom.ROOMY_MIN);
    } finally {
      jvm.setFlag("MaxHeapFreeRatio", Math.max(max, jvm.flag("MinHeapFreeRatio")));
      jvm.setFlag("MinHeapFreeRatio", min);
      jvm.setFlag("MaxHeapFreeRatio", max);
    }
  }
}
