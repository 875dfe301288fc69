package dev.infermon.simulator.testing;

import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.PodInfo;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import dev.infermon.textparse.Format;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A simulated fleet scraped into storage in simulated time, the way infermon's scrape layer stores
 * it, for the tests of the modules that read what a fleet exposes (llm, lint, web): at every step
 * each target's page is parsed with textparse, the target's labels are attached (by default {@link
 * #targetLabels}: the inventory's labels, {@code job} and {@code instance}) and {@code up} is
 * written (0 while a pod restarts). Without the scrape pipeline itself: no report series but {@code
 * up}, no staleness markers. Immutable; {@link #run} appends one transaction per step.
 */
public final class FleetScrape {
  /** The scrape interval. */
  public static final Duration STEP = Duration.ofSeconds(15);

  private final Appendable storage;
  private final boolean honorLabels;
  private final Function<PodInfo, Map<String, String>> targets;
  private final BiFunction<PodInfo, String, String> pages;

  /**
   * @param honorLabels as the scrape option: true, a page's label wins over the target's of the
   *     same name (dcgm-exporter's {@code namespace}/{@code pod}); false, the target's wins and the
   *     page's is kept as {@code exported_<name>}
   * @param targets the target labels of each pod
   */
  public FleetScrape(
      Appendable storage, boolean honorLabels, Function<PodInfo, Map<String, String>> targets) {
    this(storage, honorLabels, targets, (info, page) -> page);
  }

  private FleetScrape(
      Appendable storage,
      boolean honorLabels,
      Function<PodInfo, Map<String, String>> targets,
      BiFunction<PodInfo, String, String> pages) {
    this.storage = storage;
    this.honorLabels = honorLabels;
    this.targets = targets;
    this.pages = pages;
  }

  /**
   * This scrape with each page replaced by what {@code pages} makes of it (the pod, its page) at
   * the scrape: a test serves a target as a release the simulator does not (an older router
   * generation's names) from the fleet's state at that moment.
   */
  public FleetScrape pages(BiFunction<PodInfo, String, String> pages) {
    return new FleetScrape(storage, honorLabels, targets, pages);
  }

  /** With the {@link #targetLabels} of each pod. */
  public FleetScrape(Appendable storage, boolean honorLabels) {
    this(storage, honorLabels, FleetScrape::targetLabels);
  }

  /**
   * The inventory's labels ({@code namespace}, {@code pod}, {@code workload_name}, {@code backend},
   * {@code role}) with {@code job} (the engine, or {@code dcgm}) and {@code instance} ({@code
   * <pod>:8000}, or {@code :9400} for an exporter), as the inference discovery sets them.
   */
  public static Map<String, String> targetLabels(PodInfo info) {
    Map<String, String> t = new LinkedHashMap<>(info.targetLabels());
    boolean dcgm = info.backend() == Backend.DCGM;
    boolean amd = info.backend() == Backend.AMDGPU;
    t.put("job", dcgm || amd ? info.backend().label() : info.engine());
    // dcgm-exporter's :9400; AMD's ServerPort 5000 (ROCm/device-metrics-exporter example config)
    t.put("instance", info.name() + ":" + (dcgm ? 9400 : amd ? 5000 : 8000));
    return t;
  }

  /**
   * The labels infermon's generated scrape config gives each pod ({@code
   * InventoryFormats.prometheusYaml}): the inventory's, {@code job} ({@code inference}, or the GPU
   * exporter's backend) and {@code instance} from {@code hostPort}, so that a backfilled history's
   * series continue as the live scrapes' do.
   */
  public static Function<PodInfo, Map<String, String>> scrapeConfigLabels(
      Function<PodInfo, String> hostPort) {
    return info -> {
      Map<String, String> t = new LinkedHashMap<>(info.targetLabels());
      t.put("instance", hostPort.apply(info));
      t.put("job", info.backend().gpuExporter() ? info.backend().label() : "inference");
      return t;
    };
  }

  /** Steps {@code fleet} for {@code d}, scraping every target at every step. */
  public void run(Fleet fleet, Duration d) {
    run(fleet, d, snap -> {});
  }

  /** As {@link #run(Fleet, Duration)}; {@code observe} runs after each step's commit. */
  public void run(Fleet fleet, Duration d, Consumer<Fleet.Snapshot> observe) {
    run(fleet, d, STEP, observe);
  }

  /**
   * As {@link #run(Fleet, Duration, Consumer)}, scraping every {@code step}; returns the samples
   * stored, {@code up} included.
   */
  public long run(Fleet fleet, Duration d, Duration step, Consumer<Fleet.Snapshot> observe) {
    long[] samples = {0};
    fleet.replay(
        fleet.nowMillis() + d.toMillis(),
        step,
        snap -> {
          samples[0] += ingest(fleet, snap);
          observe.accept(snap);
        });
    return samples[0];
  }

  private long ingest(Fleet fleet, Fleet.Snapshot snap) {
    Appender app = storage.appender();
    long samples = 0;
    try {
      for (PodInfo info : fleet.inventory()) {
        Map<String, String> target = targets.apply(info);
        String page = snap.pages().get(info.name());
        page = page == null ? null : pages.apply(info, page);
        PageAppender.up(app, target, snap.timeMillis(), page == null ? 0 : 1);
        samples++;
        if (page != null) {
          samples +=
              PageAppender.append(app, page, Format.TEXT, target, snap.timeMillis(), honorLabels);
        }
      }
      app.commit();
      return samples;
    } catch (Exception e) {
      app.rollback();
      throw new IllegalStateException("cannot load a simulated page: " + e.getMessage(), e);
    }
  }
}
