package dev.infermon.server.demo;

import dev.infermon.config.Config;
import dev.infermon.config.ConfigLoader;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.rules.AlertNotifier;
import dev.infermon.rules.EngineQueryFunction;
import dev.infermon.rules.RuleGroup;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.rules.RuleManager;
import dev.infermon.rules.RuleManagerOptions;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.server.runtime.LlmLayer;
import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.tsdb.Tsdb;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real captures replayed as {@code infermon demo --replay} replays them, in simulated time: served
 * by the demo's {@link ReplayedTargets} (each page equal to its capture at {@link #startMs}, then
 * advancing at the captured value per uptime), scraped by the demo's {@link FleetBackfill} (the
 * scrape pipeline's own ingest, with the targets the demo's generated configuration makes) into a
 * real TSDB every {@link #STEP} for {@link #HISTORY}, while the default alert pack, as {@code
 * serve} loads it, is evaluated by the rules module at its evaluation slots over what is stored so
 * far. Then the LLM layer's services, built by the server's {@link LlmLayer}, read the store.
 *
 * <p>The history ends at the wall clock rounded down to {@link #ALIGN}, and the pages go on to the
 * wall clock itself, because lint's stored reference reads the inventory at the wall clock's now;
 * nothing else depends on it, so every fact is the same on every run once times are written
 * relative to {@link #startMs}. The rounding matters: subquery steps are aligned to the epoch (as
 * in Prometheus), so a window whose end moved by 15 s against them could see a counter's single
 * increment at its edge in one run and not in the next.
 *
 * <p>Not thread-safe; {@link #close()} closes the TSDB.
 */
final class ReplayedWorld implements AutoCloseable {
  /** The demo's scrape interval, and the evaluation interval its configuration sets. */
  static final Duration STEP = Duration.ofSeconds(15);

  /**
   * How much history: longer than every {@code for} of the pack (15 m) after a 5 m rate window has
   * filled, longer than diagnosis's default window (30 m), as long as lint's (1 h).
   */
  static final Duration HISTORY = Duration.ofHours(1);

  /**
   * What the history's end is a multiple of: every subquery step of the windows read here (a tenth
   * of the dashboard's 30 m, of diagnosis's 30 m and of lint's 1 h) divides it.
   */
  static final Duration ALIGN = Duration.ofMinutes(6);

  /** The name {@code serve} gives the default pack ({@code runtime.RuleFiles}). */
  static final String PACK_FILE = "<infermon>/default-alerts.yml";

  final long startMs;
  final long endMs;
  final LlmLayer llm;

  /** The default alert pack as evaluated here: the rule file {@code serve} loads. */
  final String pack;

  private final Map<String, String> nameByHostPort;
  private final Tsdb tsdb;
  private final List<RuleGroup> groups;

  private ReplayedWorld(
      long startMs,
      long endMs,
      String pack,
      Map<String, String> nameByHostPort,
      Tsdb tsdb,
      LlmLayer llm,
      List<RuleGroup> groups) {
    this.startMs = startMs;
    this.endMs = endMs;
    this.pack = pack;
    this.nameByHostPort = Map.copyOf(nameByHostPort);
    this.tsdb = tsdb;
    this.llm = llm;
    this.groups = groups;
  }

  /**
   * Replays {@code targets} for {@link #HISTORY} into a TSDB in {@code dir}.
   *
   * @throws Exception when a port cannot be bound, the storage cannot be opened or the generated
   *     configuration or pack is refused (each a bug of the harness or of infermon)
   */
  static ReplayedWorld run(List<ReplayTarget> targets, Path dir) throws Exception {
    long wall = System.currentTimeMillis() / STEP.toMillis() * STEP.toMillis();
    long end = wall / ALIGN.toMillis() * ALIGN.toMillis();
    long start = end - HISTORY.toMillis();
    Tsdb tsdb = Tsdb.open(dir);
    try (ReplayedTargets served = ReplayedTargets.start(targets, start)) {
      String yaml = served.prometheusYaml((int) STEP.toSeconds());
      Config cfg = ConfigLoader.create().parse(yaml, "infermon-demo.yml");
      FleetBackfill backfill =
          new FleetBackfill(
              served, cfg.scrapeConfigs(), tsdb, STEP, new PrintWriter(Writer.nullWriter()));
      long[] now = {start};
      Engine engine = new Engine(EngineOptions.DEFAULTS);
      RuleManagerOptions opts =
          RuleManagerOptions.defaults(
                  new EngineQueryFunction(engine, tsdb), tsdb, tsdb, AlertNotifier.NONE)
              .withDefaultInterval(cfg.global().evaluationInterval())
              .withClock(() -> now[0]);
      QueryBackend backend = new EmbeddedQueryBackend(tsdb, engine);
      LlmLayer llm = LlmLayer.over(backend);
      String pack = llm.exports().rules(List.of(), cfg.llm().alerts());
      List<RuleGroup> groups =
          RuleManager.groups(List.of(RuleFileParser.parse(PACK_FILE, pack)), opts, false);
      evaluate(groups, backfill, start, end, now);
      backfill.run(wall, () -> 0);
      Map<String, String> names = new LinkedHashMap<>();
      for (ReplayTarget t : targets) {
        names.put(served.server().hostPort(t), "<" + t.name() + ">");
      }
      return new ReplayedWorld(start, end, pack, names, tsdb, llm, groups);
    } catch (Exception | Error e) {
      tsdb.close();
      throw e;
    }
  }

  /**
   * Steps the pages and the groups together: before each evaluation slot every page up to it is
   * stored, as live scrapes would have stored them by then.
   */
  private static void evaluate(
      List<RuleGroup> groups, FleetBackfill backfill, long start, long end, long[] now) {
    long[] next = new long[groups.size()];
    for (int i = 0; i < groups.size(); i++) {
      RuleGroup g = groups.get(i);
      next[i] = g.evalTimestampNanos(start * 1_000_000L) / 1_000_000L + g.intervalMs();
    }
    while (true) {
      int due = -1;
      for (int i = 0; i < next.length; i++) {
        if (next[i] <= end && (due < 0 || next[i] < next[due])) {
          due = i;
        }
      }
      if (due < 0) {
        break;
      }
      long t = next[due];
      backfill.run(t, () -> 0);
      now[0] = t;
      groups.get(due).eval(t);
      next[due] += groups.get(due).intervalMs();
    }
    backfill.run(end, () -> 0);
    now[0] = end;
  }

  /** The rule groups' state after the last evaluation. */
  List<RuleGroupStatus> rules() {
    List<RuleGroupStatus> out = new ArrayList<>();
    for (RuleGroup g : groups) {
      out.add(g.status());
    }
    return out;
  }

  /**
   * The target served at {@code instance} ({@code 127.0.0.1:port}) as {@code <name>}, for text that
   * must not change with the free ports; other values as they are.
   */
  String name(String instance) {
    return nameByHostPort.getOrDefault(instance, instance);
  }

  /** {@code text} with every target's {@code host:port} replaced by {@code <name>}. */
  String normalize(String text) {
    String out = text;
    for (Map.Entry<String, String> e : nameByHostPort.entrySet()) {
      out = out.replace(e.getKey(), e.getValue());
    }
    return out;
  }

  @Override
  public void close() {
    tsdb.close();
  }
}
