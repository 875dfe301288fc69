package dev.infermon.llm.diagnosis;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pods whose families hold steady values for a window, written into a {@link MemoryStorage} every
 * 15 s as a scrape would store them, for the states no simulator scenario and no capture shows
 * (speculative decoding, an engine that lacks a family): a gauge at a level, a counter growing at a
 * rate, a classic histogram whose observations all fall at one value at a rate. The names are the
 * engines' own ({@code ../shared/research/vllm.md} §2, {@code sglang.md} §2) and every series
 * carries the target labels the inference discovery sets. Not thread-safe.
 */
final class SyntheticPods {
  static final long START = 1_780_000_000_000L;
  static final long STEP = 15_000;

  /** vLLM's TTFT bounds (vllm.md §2.4). */
  static final double[] VLLM_TTFT = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };

  /** vLLM's per-token latency bounds (vllm.md §2.4). */
  static final double[] VLLM_ITL = {
    0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
    40.0, 80.0
  };

  /** vLLM's request-phase bounds (vllm.md §2.4). */
  static final double[] VLLM_PHASE = {
    0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0,
    480.0, 960.0, 1920.0, 7680.0
  };

  /** vLLM's 1-2-5 token bounds up to a 32k context (vllm.md §2.3). */
  static final double[] VLLM_TOKENS = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000
  };

  /** SGLang's ITL bounds (sglang.md §2.3). */
  static final double[] SGLANG_ITL = {
    0.002, 0.004, 0.006, 0.008, 0.010, 0.015, 0.020, 0.025, 0.030, 0.035, 0.040, 0.060, 0.080,
    0.100, 0.200, 0.400, 0.600, 0.800, 1, 2, 4, 6, 8
  };

  /** SGLang's TTFT bounds (sglang.md §2.3). */
  static final double[] SGLANG_TTFT = {
    0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400
  };

  final MemoryStorage storage = new MemoryStorage();
  final QueryBackend backend =
      new EmbeddedQueryBackend(storage, new Engine(EngineOptions.DEFAULTS));
  final long end;
  private final List<Pod> pods = new ArrayList<>();

  /** Pods that hold their values for {@code minutes} from {@link #START}. */
  SyntheticPods(int minutes) {
    this.end = START + minutes * 60_000L;
  }

  /** A vLLM V1 pod ({@code engine="0"}) serving model {@code m} in namespace {@code ns}. */
  Pod vllm(String pod) {
    return add(pod, "vllm", "engine", "0");
  }

  /** An SGLang pod: scheduler gauges on TP rank 0, tokenizer families with the model only. */
  Pod sglang(String pod) {
    return add(pod, "sglang");
  }

  /**
   * A Hugging Face TGI pod: its page names no model (tgi.md), so the model {@code m} is the
   * target's {@code workload_name}, as the inference discovery sets it.
   */
  Pod tgi(String pod) {
    Pod p = add(pod, "tgi");
    p.engine.remove("model_name");
    p.target.put("workload_name", "m");
    return p;
  }

  /**
   * An NVIDIA NIM pod: vLLM's names without a prefix and no {@code engine_type}, as on the NIM
   * capture (../shared/fixtures/nim/nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt), serving {@code
   * model}; discovery's backend {@code nim}.
   */
  Pod nim(String pod, String model) {
    Pod p = add(pod, "nim");
    p.engine.put("model_name", model);
    p.target.put("backend", "nim");
    return p;
  }

  /**
   * A trtllm-serve 1.0 pod: its five unprefixed families (trtllm.yaml, collector @ 89fd9b74), every
   * series labelled {@code model_name} and {@code engine_type} "undefined" as the server hard-coded
   * them until #12545, so its model is the target's {@code workload_name}, {@code model};
   * discovery's backend {@code trtllm}.
   */
  Pod trtllm10(String pod, String model) {
    Pod p = add(pod, "trtllm");
    p.engine.put("model_name", "undefined");
    p.engine.put("engine_type", "undefined");
    p.target.put("workload_name", model);
    p.target.put("backend", "trtllm");
    return p;
  }

  private Pod add(String pod, String job, String... engineLabels) {
    Pod p = new Pod(pod, job, engineLabels);
    pods.add(p);
    return p;
  }

  /** Writes every pod's series, one transaction per 15 s step, and returns this. */
  SyntheticPods write() {
    for (long t = START; t <= end; t += STEP) {
      double elapsed = (t - START) / 1000.0;
      Appender app = storage.appender();
      try {
        for (Pod p : pods) {
          p.append(app, t, elapsed);
        }
        app.commit();
      } catch (Exception e) {
        app.rollback();
        throw new IllegalStateException(e);
      }
    }
    return this;
  }

  /** One pod's families: each a function of the seconds elapsed. */
  static final class Pod {
    private final Map<String, String> target = new LinkedHashMap<>();
    private final Map<String, String> engine = new LinkedHashMap<>();
    // by name and labels: a later call for the same series replaces the earlier one
    private final Map<String, Sample> samples = new LinkedHashMap<>();

    private record Sample(String name, Map<String, String> labels, double base, double rate) {}

    Pod(String pod, String job, String... engineLabels) {
      target.put("namespace", "ns");
      target.put("pod", pod);
      target.put("job", job);
      target.put("instance", pod + ":8000");
      engine.put("model_name", "m");
      for (int i = 0; i < engineLabels.length; i += 2) {
        engine.put(engineLabels[i], engineLabels[i + 1]);
      }
    }

    /** A gauge at {@code v}; {@code labels} as name, value pairs. */
    Pod gauge(String name, double v, String... labels) {
      put(new Sample(name, labels(labels), v, 0));
      return this;
    }

    /** A counter growing by {@code perSecond} from 0. */
    Pod counter(String name, double perSecond, String... labels) {
      put(new Sample(name, labels(labels), 0, perSecond));
      return this;
    }

    /** A histogram with {@code perSecond} observations, all of {@code value}. */
    Pod histogram(String name, double[] bounds, double value, double perSecond) {
      for (double b : bounds) {
        double inBucket = value <= b ? perSecond : 0;
        put(new Sample(name + "_bucket", labels("le", le(b)), 0, inBucket));
      }
      put(new Sample(name + "_bucket", labels("le", "+Inf"), 0, perSecond));
      put(new Sample(name + "_count", labels(), 0, perSecond));
      put(new Sample(name + "_sum", labels(), 0, perSecond * value));
      return this;
    }

    private void put(Sample s) {
      samples.put(s.name() + s.labels(), s);
    }

    private static String le(double b) {
      return b == Math.rint(b) ? String.valueOf(b) : Double.toString(b);
    }

    private Map<String, String> labels(String... pairs) {
      Map<String, String> out = new LinkedHashMap<>(engine);
      for (int i = 0; i < pairs.length; i += 2) {
        out.put(pairs[i], pairs[i + 1]);
      }
      return out;
    }

    void append(Appender app, long t, double elapsed) throws Exception {
      Labels.Builder up = Labels.builder().set("__name__", "up");
      target.forEach(up::set);
      app.append(0, up.build(), t, 1);
      for (Sample s : samples.values()) {
        Labels.Builder b = Labels.builder().set("__name__", s.name());
        target.forEach(b::set);
        s.labels().forEach(b::set);
        app.append(0, b.build(), t, s.base() + s.rate() * elapsed);
      }
    }
  }
}
