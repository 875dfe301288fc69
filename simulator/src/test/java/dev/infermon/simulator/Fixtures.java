package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.sglang.SglangMetrics;
import dev.infermon.simulator.sglang.SglangPage;
import dev.infermon.simulator.sglang.SglangRelease;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.vllm.VllmMetrics;
import dev.infermon.simulator.vllm.VllmPage;
import dev.infermon.simulator.vllm.VllmRelease;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Test helpers: the copied real captures, and pages of engines that ran for a while. */
final class Fixtures {
  static final double T0 = 1_790_000_000.0;

  private Fixtures() {}

  /**
   * A real capture (test resources {@code captures/}, listed by {@link Captures}), or a file of
   * {@code fixtures/} (what was transcribed from one).
   */
  static String capture(String name) {
    if (!name.startsWith("vllm-v1-") || !name.endsWith("-families.txt")) {
      return Captures.get(name).text();
    }
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource fixtures/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static EngineParams params(int maxModelLen) {
    return new EngineParams(
        2452, 16, 256, 8192, maxModelLen, 0.006, 0.002, 0.00005, 0.00025, 4e-9, 0);
  }

  static Workload workload(int maxModelLen) {
    int[] maxTokens = maxModelLen >= 4096 ? new int[] {256, 1024} : new int[] {64, 256};
    return new Workload(2, 300, 0.8, 80, 0.8, maxTokens, 0.5, 0.01, 10, Workload.Phase.BOTH);
  }

  /** The page of a vLLM server of {@code release} after {@code seconds} of traffic. */
  static String vllmPage(VllmRelease release, int maxModelLen, int engines, double seconds) {
    return vllmPage(release, maxModelLen, engines, seconds, 0);
  }

  /** The same with {@code --speculative-config} of {@code k} speculative tokens (0: off). */
  static String vllmPage(
      VllmRelease release, int maxModelLen, int engines, double seconds, int speculativeTokens) {
    List<VllmPage.Engine> views = new java.util.ArrayList<>();
    EngineParams p = params(maxModelLen);
    for (int i = 0; i < engines; i++) {
      VllmMetrics m = new VllmMetrics(maxModelLen, release.isV0(), false, speculativeTokens);
      EngineModel e = new EngineModel(p, workload(maxModelLen), LoadShape.flat(), 7 + i, m, T0);
      e.advanceTo(T0 + seconds);
      views.add(new VllmPage.Engine(i, m, e.state()));
    }
    return VllmPage.render(
        new VllmPage.View(release, "Qwen/Qwen1.5-0.5B-Chat", views, p, T0, T0 + seconds));
  }

  /** The page of an SGLang 0.5.9 server after {@code seconds} of traffic. */
  static String sglangPage(String engineType, int tp, double seconds) {
    return sglangPage(engineType, tp, seconds, SglangRelease.V0_5_9);
  }

  /** The page of an SGLang server of {@code release} after {@code seconds} of traffic. */
  static String sglangPage(String engineType, int tp, double seconds, SglangRelease release) {
    boolean prefill = engineType.equals("prefill");
    boolean decode = engineType.equals("decode");
    SglangMetrics m = new SglangMetrics(prefill, decode);
    Workload.Phase phase =
        prefill ? Workload.Phase.PREFILL : decode ? Workload.Phase.DECODE : Workload.Phase.BOTH;
    EngineParams p = decode ? params(32768).withTransferPerToken(2e-6) : params(32768);
    EngineModel e =
        new EngineModel(p, workload(32768).withPhase(phase), LoadShape.flat(), 11, m, T0);
    m.sampleStateFrom(e::state);
    e.advanceTo(T0 + seconds);
    m.publishIfIdle(T0 + seconds);
    return SglangPage.render(
        new SglangPage.View("Qwen-32B", engineType, tp, 910, m, release, 32768));
  }
}
