package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.llm.export.ExportService;
import dev.infermon.model.labels.Labels;
import dev.infermon.notifier.Alert;
import dev.infermon.notifier.Notifier;
import dev.infermon.notifier.NotifierConfigs;
import dev.infermon.notifier.NotifierMetrics;
import dev.infermon.notifier.NotifierOptions;
import dev.infermon.rules.AlertAnnotator;
import dev.infermon.rules.Notification;
import dev.infermon.rules.QueryFunction;
import dev.infermon.rules.RuleGroupStatus;
import dev.infermon.rules.RuleManager;
import dev.infermon.rules.RuleManagerOptions;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.storage.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Rules and notifications of a running infermon: the {@link RuleManager} evaluating {@code
 * rule_files} plus the default LLM alert pack, and the {@link Notifier} that posts the alerts to
 * the Alertmanagers of the {@code alerting} section. Rules' {@link Notification}s become the
 * notifier's {@link Alert}s field by field.
 *
 * <p>{@link #prepare(Config)} reloads: the rule files are read again (a file that does not load
 * refuses the whole reload and the running rules stay), and the notifier is rebuilt when the {@code
 * alerting} section changed. The external labels and the default evaluation interval are fixed at
 * start (the reload refuses a change).
 *
 * <p>Threading: {@code prepare}, its change and {@code close} are synchronized; {@link #status()}
 * and the sending path may be called from any thread.
 */
final class Alerting implements AutoCloseable {
  /** Rule groups evaluate on this many threads; groups are few and evaluations short. */
  private static final int RULE_THREADS = 2;

  private final AlertingSettings settings;
  private final NotifierMetrics metrics;
  private final RuleManager rules;
  private final ExportService exports;
  private volatile Notifier notifier;
  private Config applied;

  private Alerting(
      AlertingSettings settings,
      NotifierMetrics metrics,
      QueryFunction query,
      Storage storage,
      Config cfg,
      String externalUrl,
      ExportService exports,
      AlertAnnotator causes) {
    this.settings = settings;
    this.metrics = metrics;
    this.exports = exports;
    RuleManagerOptions opts =
        RuleManagerOptions.defaults(query, storage, storage, this::send)
            .withExternal(cfg.global().externalLabels(), externalUrl)
            .withDefaultInterval(cfg.global().evaluationInterval())
            .withAlertTiming(
                settings.resendDelay(), settings.forOutageTolerance(), settings.forGracePeriod())
            .withAnnotator(causes, RuleManagerOptions.DEFAULT_ANNOTATOR_TIMEOUT);
    this.rules = new RuleManager(opts, RULE_THREADS);
  }

  /**
   * Loads the rules of {@code cfg} and starts evaluating them.
   *
   * @param query how rules query (the embedded engine, or the remote API)
   * @param storage where recording rules and {@code ALERTS} go, and whence {@code ALERTS_FOR_STATE}
   *     is restored
   * @param externalUrl the URL alerts link back to ({@code generatorURL})
   * @param exports the LLM layer's exports: the default alert pack and the SLO rules
   * @param causes what annotates active alerts with their cause (the LLM layer's diagnosis)
   * @throws dev.infermon.rules.rulefmt.RuleFileException when a rule file does not load
   */
  static Alerting start(
      Config cfg,
      AlertingSettings settings,
      NotifierMetrics metrics,
      QueryFunction query,
      Storage storage,
      String externalUrl,
      ExportService exports,
      AlertAnnotator causes) {
    List<RuleFile> files = RuleFiles.load(cfg.ruleFiles(), cfg.llm(), exports);
    Alerting a = new Alerting(settings, metrics, query, storage, cfg, externalUrl, exports, causes);
    a.notifier = a.newNotifier(cfg);
    a.rules.update(files);
    a.applied = cfg;
    return a;
  }

  /**
   * Prepares a reloaded configuration: reads the rule files and, when the {@code alerting} section
   * changed, checks the new notifier's settings. Applying swaps in the new rules and notifier.
   *
   * @throws dev.infermon.rules.rulefmt.RuleFileException when a rule file does not load
   * @throws Component.Refused when {@code global.external_labels} changed: the rules' templates and
   *     series take them at start
   */
  synchronized Component.Change prepare(Config cfg) throws Component.Refused {
    if (!cfg.global().externalLabels().equals(applied.global().externalLabels())) {
      throw new Component.Refused(
          "global.external_labels", "the rules' templates and series take them at start");
    }
    List<RuleFile> files = RuleFiles.load(cfg.ruleFiles(), cfg.llm(), exports);
    boolean notify = !cfg.alerting().equals(applied.alerting());
    NotifierOptions opts = notify ? notifierOptions(cfg) : null;
    return () -> apply(cfg, files, opts);
  }

  private synchronized void apply(Config cfg, List<RuleFile> files, NotifierOptions opts) {
    if (opts != null) {
      Notifier old = notifier;
      notifier = new Notifier(opts, NotifierConfigs.sets(cfg.alerting()), metrics);
      old.close();
    }
    rules.update(files);
    applied = cfg;
  }

  private Notifier newNotifier(Config cfg) {
    return new Notifier(notifierOptions(cfg), NotifierConfigs.sets(cfg.alerting()), metrics);
  }

  private NotifierOptions notifierOptions(Config cfg) {
    return NotifierConfigs.options(cfg.alerting(), cfg.global().externalLabels())
        .withQueueCapacity(settings.notificationQueueCapacity());
  }

  /** The rules' alerts, as Alertmanager's API v2 takes them. */
  private void send(List<Notification> alerts) {
    List<Alert> out = new ArrayList<>(alerts.size());
    for (Notification n : alerts) {
      out.add(alert(n));
    }
    notifier.send(out);
  }

  static Alert alert(Notification n) {
    return new Alert(
        n.labels(),
        Objects.requireNonNullElse(n.annotations(), Labels.EMPTY),
        n.startsAtMs(),
        n.endsAtMs(),
        n.generatorUrl());
  }

  /** Snapshots of every rule group, for the API and the metrics. */
  List<RuleGroupStatus> status() {
    return rules.status();
  }

  /** Alerts waiting to be sent. */
  int queueLength() {
    return notifier.queueLength();
  }

  /** Stops evaluating, then stops sending (what is still queued is dropped and counted). */
  @Override
  public synchronized void close() {
    rules.close();
    notifier.close();
  }
}
