package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.sglang.SglangGateway;
import dev.infermon.simulator.sglang.SglangMetrics;
import dev.infermon.simulator.sglang.SglangPage;
import dev.infermon.simulator.sglang.SglangRelease;
import java.util.List;

/**
 * An SGLang server, or a gateway in front of one: the gateway serves its worker's page through the
 * {@code /engine_metrics} rewrite ({@code sglang_} names, {@code worker_addr} label). Not
 * thread-safe.
 */
public final class SglangPod extends InferencePod {
  private final boolean gateway;
  private final String workerAddress;
  private final int firstPid;
  private final LoraAdapters lora;
  private final SglangRelease release;
  private SglangMetrics metrics;

  SglangPod(
      PodInfo info,
      boolean gateway,
      String workerAddress,
      int firstPid,
      ModelProfile profile,
      long seed,
      LoadShape shape,
      Workload.Phase phase,
      String arrivalKey,
      Scenario scenario,
      double startEpoch,
      LoraAdapters lora,
      SglangRelease release) {
    super(info, profile, seed, shape, phase, arrivalKey, scenario, startEpoch);
    if (release == null) {
      throw new IllegalArgumentException("release must not be null");
    }
    this.release = release;
    this.gateway = gateway;
    this.workerAddress = workerAddress;
    this.firstPid = firstPid;
    this.lora = lora;
    start();
  }

  @Override
  EngineListener newListener(int index) {
    String role = info().role();
    metrics = new SglangMetrics(role.equals("prefill"), role.equals("decode"));
    if (lora.enabled()) {
      metrics.enableLora(lora.maxLoras());
    }
    return metrics;
  }

  @Override
  void enginesStarted() {
    for (EngineModel e : engines()) {
      e.setLora(lora); // --enable-lora --max-loras-per-batch N
    }
    metrics.sampleStateFrom(() -> engines().get(0).state());
  }

  /** The LoRA adapters requests ask for ({@link LoraAdapters#NONE} without LoRA). */
  public LoraAdapters lora() {
    return lora;
  }

  /** The server's counters (fresh after a restart). */
  public SglangMetrics metrics() {
    return metrics;
  }

  /** The release line whose page the server serves. */
  public SglangRelease release() {
    return release;
  }

  /** Whether the page is served through the gateway rewrite. */
  public boolean gateway() {
    return gateway;
  }

  @Override
  String renderPage(double now) {
    metrics.publishIfIdle(now);
    String engineType = info().role().isEmpty() ? "unified" : info().role();
    String page =
        SglangPage.render(
            new SglangPage.View(
                profile().name(),
                engineType,
                info().tensorParallel(),
                firstPid,
                metrics,
                release,
                profile().params().maxModelLen()));
    if (gateway) {
      return SglangGateway.render(List.of(new SglangGateway.Worker(workerAddress, page)));
    }
    return page;
  }
}
