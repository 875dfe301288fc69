package dev.infermon.simulator.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.PriorityQueue;

/**
 * One engine core under continuous batching, stepped one iteration at a time in simulated time.
 *
 * <p>Each iteration follows vLLM V1's scheduler in spirit: running requests decode first (one token
 * each, growing into a new KV block when they cross a block boundary, preempting the newest running
 * request when no block is free), unfinished prefills continue in chunks, then waiting requests are
 * admitted in arrival order while the batch, the token budget and the KV cache allow. A request
 * that needs a scarce resource (a LoRA slot) is skipped while its budget is used up: that is
 * waiting for reason {@code deferred}; everything else waits for {@code capacity}. An idle engine
 * jumps straight to its next arrival, so simulating quiet hours costs nothing.
 *
 * <p>Not thread-safe: the owning pod serialises calls. Deterministic: the same parameters, seed and
 * call sequence give the same events.
 */
public final class EngineModel {
  /** How long a client waits for its answer before it gives up (aborts). */
  public static final double CLIENT_TIMEOUT_SECONDS = 300;

  /** The longest run of identical decode steps simulated as one. */
  static final int MAX_STEPS_PER_RUN = 64;

  private final EngineParams params;
  private final Workload workload;
  private final RequestSource source;
  private final EngineListener listener;
  private final GpuActivity gpu = new GpuActivity();

  private ScenarioEffects effects = ScenarioEffects.NONE;
  private LoraAdapters lora = LoraAdapters.NONE;
  private final HashMap<String, Integer> runningAdapters = new HashMap<>();
  private double clock;

  private final PriorityQueue<Request> transferring =
      new PriorityQueue<>(Comparator.comparingDouble((Request r) -> r.readyAt));
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private final ArrayDeque<Request> waitingDeferred = new ArrayDeque<>();
  private final ArrayList<Request> running = new ArrayList<>();
  private final PriorityQueue<Request> abortClock =
      new PriorityQueue<>(Comparator.comparingDouble((Request r) -> r.abortAt));
  private int usedBlocks;
  private int runningDeferred;
  private long finishedCount;

  // per-iteration scratch, reused to keep the hot loop allocation-free
  private final ArrayList<Request> decodeBatch = new ArrayList<>();
  private final ArrayList<Request> prefillBatch = new ArrayList<>();
  private int[] prefillChunks = new int[64];
  private int preemptedThisStep;

  /**
   * An engine that starts empty at {@code startEpochSeconds}.
   *
   * @param seed seeds this engine's arrivals and request sampling
   */
  public EngineModel(
      EngineParams params,
      Workload workload,
      LoadShape shape,
      long seed,
      EngineListener listener,
      double startEpochSeconds) {
    if (params == null || workload == null || shape == null || listener == null) {
      throw new IllegalArgumentException("params, workload, shape and listener are required");
    }
    this.params = params;
    this.workload = workload;
    this.source = new RequestSource(params, workload, shape, seed, startEpochSeconds);
    this.listener = listener;
    this.clock = startEpochSeconds;
  }

  /** The engine's parameters. */
  public EngineParams params() {
    return params;
  }

  /** The workload this engine receives. */
  public Workload workload() {
    return workload;
  }

  /** The simulated time this engine has reached, epoch seconds. */
  public double clock() {
    return clock;
  }

  /** Cumulative GPU activity (read-only for callers; updated as the engine runs). */
  public GpuActivity gpu() {
    return gpu;
  }

  /** The scenario effects in force. */
  public ScenarioEffects effects() {
    return effects;
  }

  /** Applies a scenario from now on; the next arrival is redrawn at the new rate. */
  public void setEffects(ScenarioEffects e) {
    if (e == null) {
      throw new IllegalArgumentException("effects must not be null");
    }
    this.effects = e;
    source.setEffects(e, clock);
  }

  /** The LoRA adapters requests ask for. */
  public LoraAdapters lora() {
    return lora;
  }

  /**
   * Serves {@code l} from now on: requests arriving from now ask for its adapters, and the
   * scheduler admits requests of at most its {@code maxLoras} adapters at once (requests already in
   * the engine keep theirs).
   */
  public void setLora(LoraAdapters l) {
    if (l == null) {
      throw new IllegalArgumentException("lora must not be null (LoraAdapters.NONE for none)");
    }
    this.lora = l;
  }

  /**
   * Aborts every request in the engine at {@code now}: what vLLM's {@code sleep(level, mode)} does
   * with its default mode {@code "abort"} ("Abort all in-flight requests immediately", PauseMode in
   * vllm/v1/engine/__init__.py). Their KV blocks are freed; each finishes as {@code abort}.
   */
  public void abortAll(double now) {
    List<Request> all = new ArrayList<>(running);
    all.addAll(waiting);
    all.addAll(waitingDeferred);
    all.addAll(transferring);
    for (Request r : running) {
      release(r);
    }
    running.clear();
    waiting.clear();
    waitingDeferred.clear();
    transferring.clear();
    for (Request r : all) {
      finish(r, FinishReason.ABORT, now);
    }
  }

  /** How many requests have left the engine, for any reason. */
  public long finishedCount() {
    return finishedCount;
  }

  /** Output tokens generated by requests still in the engine (running or preempted). */
  public long generatedInFlight() {
    long sum = 0;
    for (Request r : running) {
      sum += r.generated;
    }
    for (Request r : waiting) {
      sum += r.generated;
    }
    for (Request r : waitingDeferred) {
      sum += r.generated;
    }
    return sum;
  }

  /** The scheduler's state now: what the engines' gauges report. */
  public EngineState state() {
    int total = effectiveBlocks();
    boolean budgetUsed = runningDeferred >= effects.deferredBudget();
    // held back by the budget, or by the LoRA slots (vLLM counts both as deferred)
    int deferred =
        (budgetUsed ? waitingDeferred.size() : loraBlocked(waitingDeferred)) + loraBlocked(waiting);
    int capacity = waiting.size() + waitingDeferred.size() - deferred;
    long seqLens = 0;
    for (Request r : running) {
      seqLens += r.contextTokens();
    }
    return new EngineState(
        running.size(),
        capacity,
        deferred,
        transferring.size(),
        usedBlocks,
        total,
        params.blockSize(),
        seqLens);
  }

  /**
   * Runs the engine until simulated time {@code t} (epoch seconds); a time in the past is a no-op.
   */
  public void advanceTo(double t) {
    while (clock < t) {
      pullArrivals();
      expireAborts();
      releaseTransfers();
      if (!iterate()) {
        double next = Math.min(t, nextEventTime());
        if (next <= clock) {
          next = Math.min(t, Math.nextUp(clock));
        }
        gpu.idle(next - clock);
        clock = next;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // arrivals

  private void pullArrivals() {
    while (source.nextArrival() <= clock) {
      Request r = source.next(effectiveBlocks());
      r.adapter = lora.adapterFor(r.id);
      if (workload.phase() == Workload.Phase.DECODE) {
        r.readyAt = r.arrival + 0.005 + r.promptTokens * params.transferPerToken();
        transferring.add(r);
      } else {
        enqueue(r);
      }
      abortClock.add(r);
    }
  }

  private void enqueue(Request r) {
    (r.deferredClass ? waitingDeferred : waiting).addLast(r);
    listener.onQueued(r, clock);
  }

  private void releaseTransfers() {
    while (!transferring.isEmpty() && transferring.peek().readyAt <= clock) {
      enqueue(transferring.poll());
    }
  }

  private void expireAborts() {
    while (!abortClock.isEmpty() && abortClock.peek().abortAt <= clock) {
      Request r = abortClock.poll();
      if (r.done) {
        continue; // finished before its client gave up
      }
      if (running.remove(r)) {
        release(r);
        finish(r, FinishReason.ABORT, clock);
      } else if (waiting.remove(r) || waitingDeferred.remove(r) || transferring.remove(r)) {
        finish(r, FinishReason.ABORT, clock);
      }
    }
  }

  private double nextEventTime() {
    double next = source.nextArrival();
    if (!transferring.isEmpty()) {
      next = Math.min(next, transferring.peek().readyAt);
    }
    if (!abortClock.isEmpty()) {
      next = Math.min(next, abortClock.peek().abortAt);
    }
    return next;
  }

  // ---------------------------------------------------------------------------------------------
  // one iteration

  private int effectiveBlocks() {
    return Math.max(1, (int) (params.numGpuBlocks() * effects.kvCapacityFactor()));
  }

  private int effectiveMaxSeqs() {
    int cap = effects.maxNumSeqsCap();
    return cap > 0 ? Math.min(cap, params.maxNumSeqs()) : params.maxNumSeqs();
  }

  private int blocksFor(int tokens) {
    return (tokens + params.blockSize() - 1) / params.blockSize();
  }

  /** Runs one iteration if there is work; false when the engine is idle. */
  private boolean iterate() {
    int capacity = effectiveBlocks();
    int maxSeqs = effectiveMaxSeqs();
    while (usedBlocks > capacity && !running.isEmpty()) {
      preempt(running.get(running.size() - 1));
    }
    decodeBatch.clear();
    prefillBatch.clear();
    preemptedThisStep = 0;
    int budget = params.maxBatchedTokens();

    // 1. decode: every running request whose prompt is in the cache produces one token
    for (int i = 0; i < running.size() && budget > 0; i++) {
      Request r = running.get(i);
      if (!r.prefillComplete()) {
        continue;
      }
      if (blocksFor(r.privateTokens() + 1) > r.blocks) {
        while (usedBlocks + 1 > capacity && running.get(running.size() - 1) != r) {
          preempt(running.get(running.size() - 1));
        }
        if (usedBlocks + 1 > capacity) {
          preempt(r); // nothing newer left to evict: the request itself goes back
          i--;
          continue;
        }
        r.blocks++;
        usedBlocks++;
      }
      decodeBatch.add(r);
      budget--;
    }

    // 2. chunked prefill of requests already admitted, as far as free KV blocks allow
    for (Request r : running) {
      if (budget <= 0) {
        break;
      }
      if (!r.prefillComplete()) {
        int chunk = allocateChunk(r, Math.min(budget, r.prefillTarget - r.prefillDone), capacity);
        if (chunk > 0) {
          addPrefill(r, chunk);
          budget -= chunk;
        }
      }
    }

    // 3. admission in arrival order, deferred-class requests only within their budget; like
    // vLLM V1, a prefill takes KV blocks chunk by chunk, so the cache stays full under pressure
    // (V1 admits nothing in a step that had to preempt: the cache is already overcommitted)
    while (budget > 0 && running.size() < maxSeqs && preemptedThisStep == 0) {
      Request next = nextAdmissible();
      if (next == null) {
        break;
      }
      if (blocksFor(next.privateTokens() + 1) > capacity) {
        removeWaiting(next);
        finish(next, FinishReason.ERROR, clock); // can never fit: rejected as too long
        continue;
      }
      int first = next.prefillComplete() ? 0 : Math.min(budget, next.prefillTarget);
      int kvAfter = next.prefillComplete() ? next.privateTokens() + 1 : first;
      int need = blocksFor(kvAfter);
      // keep a small watermark free for the running requests' next tokens (V0's 1%, doubled)
      int watermark = Math.max(1, capacity / 50);
      if (usedBlocks + need > capacity - watermark) {
        int free = capacity - watermark - usedBlocks;
        int fits = free * params.blockSize();
        if (next.prefillComplete() || free < 1 || fits < Math.min(first, params.blockSize())) {
          break; // FCFS: the head waits for capacity and holds back the rest
        }
        first = fits;
        need = free;
      }
      removeWaiting(next);
      admit(next, need);
      if (next.prefillComplete()) {
        decodeBatch.add(next); // KV already here (PD decode side): decodes right away
        budget--;
      } else {
        addPrefill(next, first);
        budget -= first;
      }
    }

    if (decodeBatch.isEmpty() && prefillBatch.isEmpty()) {
      if (running.isEmpty()) {
        return false;
      }
      // every running request waits for KV blocks that only a preemption can free
      preempt(running.get(running.size() - 1));
      return true;
    }
    runIteration(maxSeqs, capacity);
    return true;
  }

  /**
   * How many identical decode-only steps can run back to back before anything changes: no request
   * finishes, none arrives, aborts or finishes its transfer, and the KV blocks for all of them are
   * free. Running them as one step is exact for the counters and histograms (every step produces
   * the same tokens in the same time) and makes simulating hours cheap.
   */
  private int decodeRun(double wall, int capacity) {
    if (!prefillBatch.isEmpty() || !waitingAdmissibleBlocked()) {
      return 1;
    }
    int k = MAX_STEPS_PER_RUN;
    for (Request r : decodeBatch) {
      if (r.generated == 0 || r.failing) {
        return 1;
      }
      k = Math.min(k, r.targetOutput - r.generated);
    }
    double horizon = nextEventTime() - clock;
    k = (int) Math.min(k, Math.floor(horizon / wall));
    if (k <= 1) {
      return 1;
    }
    int extra = 0;
    for (Request r : decodeBatch) {
      extra += Math.max(0, blocksFor(r.privateTokens() + k) - r.blocks);
    }
    if (usedBlocks + extra > capacity) {
      return 1;
    }
    for (Request r : decodeBatch) {
      int need = Math.max(0, blocksFor(r.privateTokens() + k) - r.blocks);
      r.blocks += need;
      usedBlocks += need;
    }
    return k;
  }

  /**
   * True when no waiting request could be admitted now (so a run of decode steps changes nothing).
   */
  private boolean waitingAdmissibleBlocked() {
    Request next = nextAdmissible();
    if (next == null) {
      return true;
    }
    if (running.size() >= effectiveMaxSeqs()) {
      return true;
    }
    int free = effectiveBlocks() - usedBlocks;
    if (next.prefillComplete()) {
      return blocksFor(next.privateTokens() + 1) > free;
    }
    return free < 1 + Math.max(1, effectiveBlocks() / 50);
  }

  /**
   * Allocates blocks for up to {@code want} more prefill tokens of {@code r}; returns how many fit.
   */
  private int allocateChunk(Request r, int want, int capacity) {
    int kvNow = r.prefillDone;
    int need = blocksFor(kvNow + want) - r.blocks;
    if (need > capacity - usedBlocks) {
      int free = capacity - usedBlocks;
      want = Math.max(0, (r.blocks + free) * params.blockSize() - kvNow);
      need = free;
      if (want == 0) {
        return 0;
      }
    }
    if (need > 0) {
      r.blocks += need;
      usedBlocks += need;
    }
    return want;
  }

  /**
   * Whether {@code r} may join the batch as far as LoRA goes: its adapter already runs, or a slot
   * is free (vLLM's {@code len(scheduled_loras) == max_loras} check).
   */
  private boolean loraFits(Request r) {
    return r.adapter == null
        || runningAdapters.containsKey(r.adapter)
        || runningAdapters.size() < lora.maxLoras();
  }

  /** The first request of {@code q} the LoRA slots let in (the head without LoRA). */
  private Request firstFitting(ArrayDeque<Request> q) {
    if (runningAdapters.isEmpty()) {
      return q.peekFirst();
    }
    for (Request r : q) {
      if (loraFits(r)) {
        return r;
      }
    }
    return null;
  }

  /** Waiting requests of {@code q} held back only by the LoRA slots (vLLM's "deferred"). */
  private int loraBlocked(ArrayDeque<Request> q) {
    int n = 0;
    if (!runningAdapters.isEmpty()) {
      for (Request r : q) {
        n += loraFits(r) ? 0 : 1;
      }
    }
    return n;
  }

  private Request nextAdmissible() {
    Request a = firstFitting(waiting);
    Request d = runningDeferred < effects.deferredBudget() ? firstFitting(waitingDeferred) : null;
    if (a == null) {
      return d;
    }
    if (d == null) {
      return a;
    }
    // preempted requests sit at the front regardless of arrival: they go first
    if (a.preemptions > 0) {
      return a;
    }
    if (d.preemptions > 0) {
      return d;
    }
    return a.arrival <= d.arrival ? a : d;
  }

  private void removeWaiting(Request r) {
    boolean removed =
        waiting.peekFirst() == r
            ? waiting.pollFirst() != null
            : waiting.remove(r) || waitingDeferred.remove(r);
    if (!removed) {
      throw new IllegalStateException("request " + r.id + " was not waiting");
    }
  }

  private void admit(Request r, int blocks) {
    r.blocks = blocks;
    usedBlocks += blocks;
    running.add(r);
    if (r.deferredClass) {
      runningDeferred++;
    }
    if (r.adapter != null) {
      runningAdapters.merge(r.adapter, 1, Integer::sum);
    }
    boolean first = Double.isNaN(r.scheduledAt);
    if (first) {
      r.scheduledAt = clock;
    }
    int queried = r.prefillTarget + r.cachedTokens;
    int hit = r.cachedTokens;
    if (workload.phase() == Workload.Phase.DECODE) {
      queried = 0;
      hit = 0;
    }
    listener.onScheduled(r, clock, queried, hit);
  }

  private void addPrefill(Request r, int chunk) {
    if (prefillBatch.size() == prefillChunks.length) {
      prefillChunks = Arrays.copyOf(prefillChunks, prefillChunks.length * 2);
    }
    prefillChunks[prefillBatch.size()] = chunk;
    prefillBatch.add(r);
  }

  private void runIteration(int maxSeqs, int capacity) {
    int prefillTokens = 0;
    for (int i = 0; i < prefillBatch.size(); i++) {
      prefillTokens += prefillChunks[i];
    }
    long kvTokens = 0;
    for (Request r : decodeBatch) {
      kvTokens += r.contextTokens();
    }
    double gpuTime =
        (params.gpuBase()
                + prefillTokens * params.prefillPerToken()
                + decodeBatch.size() * params.decodePerSeq()
                + kvTokens * params.attentionPerKvToken())
            * effects.slowdown();
    double wall = params.cpuOverhead() + gpuTime;
    int steps = decodeRun(wall, capacity);
    double end = clock + wall * steps;

    // decode tokens first: a request finishing now frees its blocks for the next iteration
    int itlTokens = 0;
    for (Request r : decodeBatch) {
      if (r.generated == 0) {
        r.generated = 1; // decode side of a PD pair: its first token
        r.firstTokenAt = end;
        listener.onFirstToken(r, end);
      } else {
        r.generated += steps;
        itlTokens += steps;
      }
    }
    if (itlTokens > 0) {
      listener.onDecode(itlTokens, wall);
    }
    for (int i = 0; i < prefillBatch.size(); i++) {
      Request r = prefillBatch.get(i);
      r.prefillDone += prefillChunks[i];
      if (r.prefillComplete() && r.generated == 0) {
        r.generated = 1; // the prefill step samples the first token
        r.firstTokenAt = end;
        listener.onFirstToken(r, end);
      }
    }
    int batch = running.size();
    for (int i = running.size() - 1; i >= 0; i--) {
      Request r = running.get(i);
      if (r.generated == 0) {
        continue;
      }
      if (r.failing) {
        running.remove(i);
        release(r);
        finish(r, FinishReason.ERROR, end);
      } else if (r.generated >= r.targetOutput) {
        running.remove(i);
        release(r);
        finish(r, r.generated >= r.maxTokens ? FinishReason.LENGTH : FinishReason.STOP, end);
      }
    }
    listener.onIteration(end, wall, steps, prefillTokens, decodeBatch.size(), batch);
    gpu.iteration(wall * steps, gpuTime * steps, prefillTokens, decodeBatch.size(), maxSeqs);
    clock = end;
  }

  private void release(Request r) {
    usedBlocks -= r.blocks;
    r.blocks = 0;
    if (r.deferredClass) {
      runningDeferred--;
    }
    if (r.adapter != null && runningAdapters.merge(r.adapter, -1, Integer::sum) == 0) {
      runningAdapters.remove(r.adapter);
    }
  }

  private void preempt(Request r) {
    running.remove(r);
    release(r);
    r.preemptions++;
    preemptedThisStep++;
    r.prefillDone = 0;
    // recompute: the prompt (less its cached prefix) and every token generated so far
    r.prefillTarget =
        workload.phase() == Workload.Phase.DECODE ? 0 : r.contextTokens() - r.cachedTokens;
    (r.deferredClass ? waitingDeferred : waiting).addFirst(r);
    listener.onPreempted(r, clock);
  }

  private void finish(Request r, FinishReason reason, double now) {
    r.done = true; // its abort-clock entry is skipped when it comes up
    finishedCount++;
    listener.onFinished(r, reason, now);
  }
}
