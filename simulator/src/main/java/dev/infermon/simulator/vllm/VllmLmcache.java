package dev.infermon.simulator.vllm;

import dev.infermon.simulator.text.Families;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.MultiprocDir;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * LMCache inside one vLLM engine ({@code --kv-transfer-config} naming {@code LMCacheConnectorV1},
 * {@code PROMETHEUS_MULTIPROC_DIR} set so vLLM's API server serves LMCache's files), as
 * LMCache/LMCache lmcache/observability.py @ 0353be82 counts and writes it: {@code LMCStatsMonitor}
 * adds to interval counts, {@code LMCacheStatsLogger} moves them into the Prometheus counters every
 * {@link #LOG_INTERVAL} seconds (the builder's {@code log_interval=10}), so the page's counters
 * step. Every TP worker (its own process, {@code worker_id} = its rank, {@code role="worker"})
 * counts the same request's tokens, its shard of their KV.
 *
 * <p>The model, deterministic: at each scheduling of a waiting request vLLM asks LMCache for the
 * prompt (a lookup of its tokens). LMCache holds the chunks ({@link #CHUNK} tokens, the default
 * chunk_size) of the prefix vLLM's own cache holds, and, for one request in {@link #RETURNING}, the
 * whole prompt (a prompt vLLM evicted since it was stored). What it holds beyond vLLM's own hits is
 * retrieved; one retrieve in {@link #SHORT_EVERY} returns one chunk less (evicted between lookup
 * and retrieve). The prompt's chunks beyond what LMCache held are stored. The engine model still
 * computes every token: LMCache's counts do not shorten the simulated prefill. The scheduler-side
 * logger (no engine, no stats thread) writes none of these families. Not thread-safe.
 */
public final class VllmLmcache {
  /** Seconds between two flushes of the interval counts into the counters. */
  public static final double LOG_INTERVAL = 10.0;

  /** LMCache's default chunk size in tokens. */
  public static final int CHUNK = 256;

  /** One request in this many finds its whole prompt in LMCache. */
  public static final int RETURNING = 4;

  /** One retrieve in this many returns a chunk less than it was asked for. */
  public static final int SHORT_EVERY = 20;

  /** time_to_retrieve / time_to_store buckets. */
  static final double[] OP_TIME = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0
  };

  /** retrieve_speed / store_speed buckets (tokens per second). */
  static final double[] SPEED = {
    1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536
  };

  /** request_cache_hit_rate buckets. */
  static final double[] HIT_RATE = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

  /** time_to_lookup buckets: 0.00001 * 2**i for i in range(20). */
  static final double[] LOOKUP_TIME = lookupBuckets();

  /** Seconds one retrieve of a chunk takes, and one store of a chunk. */
  static final double RETRIEVE_SECONDS_PER_CHUNK = 0.004;

  static final double STORE_SECONDS_PER_CHUNK = 0.003;

  static final double LOOKUP_SECONDS = 0.0003;

  /** The counters as the page shows them: [0] the logged values, [1] the current interval's. */
  private final long[][] counts = new long[2][Count.values().length];

  private final int workers;
  private final Histogram timeToRetrieve = new Histogram(OP_TIME);
  private final Histogram timeToStore = new Histogram(OP_TIME);
  private final Histogram timeToLookup = new Histogram(LOOKUP_TIME);
  private final Histogram retrieveSpeed = new Histogram(SPEED);
  private final Histogram storeSpeed = new Histogram(SPEED);
  private final Histogram requestCacheHitRate = new Histogram(HIT_RATE);

  /** The histograms with an observation, in the order of their first one. */
  private final Set<Hist> observed = new LinkedHashSet<>();

  private final List<double[]> pendingObservations = new ArrayList<>();
  private double lastLog = Double.NaN;
  private double retrieveHitRate = 1; // get_stats_and_clear: 1 with no finished retrieve
  private double lookupHitRate;
  private long lookups;
  private long retrieves;

  /** The histograms modelled, in {@code log_prometheus}'s order, with their documentation. */
  enum Hist {
    TIME_TO_RETRIEVE("time_to_retrieve", "Time to retrieve from lmcache (seconds)"),
    TIME_TO_STORE("time_to_store", "Time to store to lmcache (seconds)"),
    TIME_TO_LOOKUP("time_to_lookup", "Time to lookup in lmcache (seconds)"),
    RETRIEVE_SPEED("retrieve_speed", "Retrieve speed of lmcache (tokens per second)"),
    STORE_SPEED("store_speed", "Store speed of lmcache (tokens per second)"),
    REQUEST_CACHE_HIT_RATE("request_cache_hit_rate", "Request cache hit rate");

    final String name;
    final String help;

    Hist(String name, String help) {
      this.name = name;
      this.help = help;
    }
  }

  /** The counters LMCache counts (the monitor's interval_* fields). */
  enum Count {
    RETRIEVE_REQUESTS,
    STORE_REQUESTS,
    LOOKUP_REQUESTS,
    REQUESTED_TOKENS,
    HIT_TOKENS,
    STORED_TOKENS,
    LOOKUP_TOKENS,
    LOOKUP_HITS,
    VLLM_HIT_TOKENS,
    PROMPT_TOKENS,
    LOOKUP_0_HIT_REQUESTS
  }

  /**
   * LMCache at zero.
   *
   * @param workers the engine's TP workers, one set of series each
   */
  public VllmLmcache(int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    this.workers = workers;
  }

  private static double[] lookupBuckets() {
    double[] out = new double[20];
    for (int i = 0; i < out.length; i++) {
      out[i] = 0.00001 * Math.pow(2, i);
    }
    return out;
  }

  private void add(Count c, long n) {
    counts[1][c.ordinal()] += n;
  }

  /** vLLM scheduled a waiting request of {@code queried} prompt tokens, {@code vllmHit} its own. */
  void scheduled(long requestId, int queried, int vllmHit, double now) {
    flush(now);
    if (queried <= 0) {
      return;
    }
    lookups++;
    int held = (vllmHit / CHUNK) * CHUNK;
    if (requestId % RETURNING == 0) {
      held = (queried / CHUNK) * CHUNK;
    }
    add(Count.LOOKUP_REQUESTS, 1);
    add(Count.LOOKUP_TOKENS, queried);
    add(Count.LOOKUP_HITS, held);
    add(Count.PROMPT_TOKENS, queried);
    add(Count.VLLM_HIT_TOKENS, vllmHit);
    if (held == 0) {
      add(Count.LOOKUP_0_HIT_REQUESTS, 1);
    }
    pendingObservations.add(new double[] {0, LOOKUP_SECONDS, (double) held / queried});
    int load = held - vllmHit;
    if (load > 0) {
      retrieves++;
      int got = retrieves % SHORT_EVERY == 0 ? Math.max(0, load - CHUNK) : load;
      add(Count.RETRIEVE_REQUESTS, 1);
      add(Count.REQUESTED_TOKENS, load);
      add(Count.HIT_TOKENS, got);
      double t = Math.max(1, (load + CHUNK - 1) / CHUNK) * RETRIEVE_SECONDS_PER_CHUNK;
      pendingObservations.add(new double[] {1, t, got / t});
    }
    int store = ((queried - held) / CHUNK) * CHUNK;
    if (store > 0) {
      add(Count.STORE_REQUESTS, 1);
      add(Count.STORED_TOKENS, store);
      double t = (store / CHUNK) * STORE_SECONDS_PER_CHUNK;
      pendingObservations.add(new double[] {2, t, store / t});
    }
  }

  /** LMCacheStatsLogger's thread: every LOG_INTERVAL seconds the interval goes to the counters. */
  void flush(double now) {
    if (Double.isNaN(lastLog)) {
      lastLog = now;
      return;
    }
    if (now - lastLog < LOG_INTERVAL) {
      return;
    }
    lastLog = now;
    long[] iv = counts[1];
    long req = iv[Count.REQUESTED_TOKENS.ordinal()];
    retrieveHitRate = req == 0 ? 1 : (double) iv[Count.HIT_TOKENS.ordinal()] / req;
    long lt = iv[Count.LOOKUP_TOKENS.ordinal()];
    lookupHitRate = lt == 0 ? 0 : (double) iv[Count.LOOKUP_HITS.ordinal()] / lt;
    for (int i = 0; i < iv.length; i++) {
      counts[0][i] += iv[i];
      iv[i] = 0;
    }
    EnumSet<Hist> fresh = EnumSet.noneOf(Hist.class);
    for (double[] o : pendingObservations) {
      if (o[0] == 0) {
        timeToLookup.observe(o[1]);
        fresh.add(Hist.TIME_TO_LOOKUP);
        if (o[2] > 0) { // filter_out_zeros: a lookup without a hit is not observed
          requestCacheHitRate.observe(o[2]);
          fresh.add(Hist.REQUEST_CACHE_HIT_RATE);
        }
      } else if (o[0] == 1) {
        timeToRetrieve.observe(o[1]);
        retrieveSpeed.observe(o[2]);
        fresh.add(Hist.TIME_TO_RETRIEVE);
        fresh.add(Hist.RETRIEVE_SPEED);
      } else {
        timeToStore.observe(o[1]);
        storeSpeed.observe(o[2]);
        fresh.add(Hist.TIME_TO_STORE);
        fresh.add(Hist.STORE_SPEED);
      }
    }
    observed.addAll(fresh); // EnumSet iterates in log_prometheus's order
    pendingObservations.clear();
  }

  /** What one worker's counter shows. */
  long shown(Count c) {
    return counts[0][c.ordinal()];
  }

  /** Prompt tokens looked up, as the page shows them (one worker's count). */
  public long lookupTokens() {
    return shown(Count.LOOKUP_TOKENS);
  }

  /** Of those, the tokens LMCache held. */
  public long lookupHits() {
    return shown(Count.LOOKUP_HITS);
  }

  /** Tokens retrieves were asked for. */
  public long requestedTokens() {
    return shown(Count.REQUESTED_TOKENS);
  }

  /** Tokens retrieves returned ({@code num_hit_tokens}). */
  public long retrievedTokens() {
    return shown(Count.HIT_TOKENS);
  }

  /** Tokens stored. */
  public long storedTokens() {
    return shown(Count.STORED_TOKENS);
  }

  /** Lookups so far (not yet logged ones included). */
  public long lookups() {
    return lookups;
  }

  /**
   * Writes LMCache's files into {@code dir}: one process per TP worker ({@code firstPid} + rank),
   * each with the children its {@code PrometheusLogger} has created. At start-up the dynamic gauges
   * ({@link LmcacheDynamicGauges}); at the stats thread's first log (it logs as it starts) every
   * counter and gauge of {@code log_prometheus}, in its order (so num_prompt_tokens before
   * num_vllm_hit_tokens, the ping families last but the memory-object gauges); a histogram from its
   * first observation on ({@code _log_histogram} calls {@code labels()} per value), in the order
   * they were first observed. The profiling histograms (retrieve_process_tokens_time and the like)
   * are not modelled and so not written.
   */
  void render(MultiprocDir dir, int firstPid, String modelPath, String servedName) {
    for (int w = 0; w < workers; w++) {
      String[] l = {
        "model_name",
        modelPath,
        "worker_id",
        Integer.toString(w),
        "role",
        "worker",
        "served_model_name",
        servedName
      };
      Families live = dir.process(firstPid + w, "livemostrecent");
      Families sum = dir.process(firstPid + w, "sum");
      LmcacheDynamicGauges.bind(live, sum, l);
      if (Double.isNaN(lastLog)) {
        continue; // the stats thread has not logged yet
      }
      counters(live, l);
      gauge(
          live,
          l,
          "retrieve_hit_rate",
          "Hit rate of lmcache retrieve requests since last log",
          retrieveHitRate);
      gauge(
          live,
          l,
          "lookup_hit_rate",
          "Hit rate of lmcache lookup requests since last log",
          lookupHitRate);
      gauge(sum, l, "local_cache_usage", "Local cache usage (bytes) of lmcache", 0);
      gauge(sum, l, "remote_cache_usage", "Remote cache usage (bytes) of lmcache", 0);
      gauge(sum, l, "local_storage_usage", "Local storage usage (bytes) of lmcache", 0);
      for (Hist h : observed) {
        live.histogram(
            "lmcache:" + h.name, h.help, List.of(new HistogramChild(l, histogram(h), 0)));
      }
      gauge(live, l, "remote_ping_latency", "Latest ping latency to remote backends (ms)", 0);
      counter(live, l, "remote_ping_errors", "Number of ping errors to remote backends", 0);
      counter(live, l, "remote_ping_successes", "Number of ping successes to remote backends", 0);
      gauge(live, l, "remote_ping_error_code", "Latest ping error code to remote backends", 0);
      gauge(sum, l, "active_memory_objs_count", "The number of active memory objects", 0);
      gauge(sum, l, "pinned_memory_objs_count", "The number of pinned memory objects", 0);
    }
  }

  private void counters(Families f, String[] l) {
    counter(
        f,
        l,
        "num_retrieve_requests",
        "Total number of retrieve requests sent to lmcache",
        shown(Count.RETRIEVE_REQUESTS));
    counter(
        f,
        l,
        "num_store_requests",
        "Total number of store requests sent to lmcache",
        shown(Count.STORE_REQUESTS));
    counter(
        f,
        l,
        "num_lookup_requests",
        "Total number of lookup requests sent to lmcache",
        shown(Count.LOOKUP_REQUESTS));
    counter(
        f,
        l,
        "num_requested_tokens",
        "Total number of tokens requested from lmcache",
        shown(Count.REQUESTED_TOKENS));
    counter(
        f, l, "num_hit_tokens", "Total number of tokens hit in lmcache", shown(Count.HIT_TOKENS));
    counter(
        f,
        l,
        "num_stored_tokens",
        "Total number of tokens stored in lmcache including evicted ones",
        shown(Count.STORED_TOKENS));
    counter(
        f,
        l,
        "num_lookup_tokens",
        "Total number of tokens requested in lookup from lmcache",
        shown(Count.LOOKUP_TOKENS));
    counter(
        f,
        l,
        "num_lookup_hits",
        "Total number of tokens hit in lookup from lmcache",
        shown(Count.LOOKUP_HITS));
    counter(
        f,
        l,
        "num_prompt_tokens",
        "Number of prompt tokens in lmcache",
        shown(Count.PROMPT_TOKENS));
    counter(
        f, l, "num_vllm_hit_tokens", "Number of hit tokens in vllm", shown(Count.VLLM_HIT_TOKENS));
    counter(
        f,
        l,
        "num_remote_read_requests",
        "Total number of requests read from remote backends in lmcache",
        0);
    counter(
        f,
        l,
        "num_remote_read_bytes",
        "Total number of bytes read from remote backends in lmcache",
        0);
    counter(
        f,
        l,
        "num_remote_write_requests",
        "Total number of requests write to remote backends in lmcache",
        0);
    counter(
        f,
        l,
        "num_remote_write_bytes",
        "Total number of bytes write to remote backends in lmcache",
        0);
    counter(f, l, "local_cpu_evict_count", "Total number of evict in local cpu backend", 0);
    counter(
        f, l, "local_cpu_evict_keys_count", "Total number of evict keys in local cpu backend", 0);
    counter(
        f,
        l,
        "local_cpu_evict_failed_count",
        "Total number of failed eviction in local cpu backend",
        0);
    counter(f, l, "forced_unpin_count", "Total number of forced unpin due to timeout", 0);
    counter(
        f,
        l,
        "lookup_0_hit_requests",
        "Total number of 0 hit lookup requests",
        shown(Count.LOOKUP_0_HIT_REQUESTS));
    counter(
        f, l, "num_slow_retrieval_by_time", "Total number of slow retrievals by time threshold", 0);
    counter(
        f,
        l,
        "num_slow_retrieval_by_speed",
        "Total number of slow retrievals by speed threshold",
        0);
  }

  private static void counter(Families f, String[] l, String name, String help, double v) {
    f.counter("lmcache:" + name, help, List.of(new Child(l, v, 0)));
  }

  private static void gauge(Families f, String[] l, String name, String help, double v) {
    f.gauge("lmcache:" + name, help, List.of(new Child(l, v, 0)));
  }

  private Histogram histogram(Hist h) {
    return switch (h) {
      case TIME_TO_RETRIEVE -> timeToRetrieve;
      case TIME_TO_STORE -> timeToStore;
      case TIME_TO_LOOKUP -> timeToLookup;
      case RETRIEVE_SPEED -> retrieveSpeed;
      case STORE_SPEED -> storeSpeed;
      case REQUEST_CACHE_HIT_RATE -> requestCacheHitRate;
    };
  }
}
