package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.llm.export.ExportService;
import dev.infermon.model.labels.Labels;
import dev.infermon.notifier.Alert;
import dev.infermon.notifier.Notifier;
import dev.infermon.notifier.NotifierConfigs;
import dev.infermon.notifier.NotifierMetrics;
import dev.infermon.notifier.NotifierOptions;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rules and notifications of a running infermon: the {@link RuleManager} evaluating {@code
 * rule_files} plus the default LLM alert pack, and the {@link Notifier} that posts the alerts to
 * the Alertmanagers of the {@code alerting} section. Rules' {@link Notification}s become the
 * notifier's {@link Alert}s field by field.
 *
 * <p>{@link #apply(Config)} reloads: the rule files are read again (a file that does not load
 * refuses the whole reload and the running rules stay), and the notifier is rebuilt when the {@code
 * alerting} section or the external labels changed.
 *
 * <p>Threading: {@code apply} and {@code close} are synchronized; {@link #status()} and the sending
 * path may be called from any thread.
 */
final class Alerting implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Alerting.class);

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
      ExportService exports) {
    this.settings = settings;
    this.metrics = metrics;
    this.exports = exports;
    RuleManagerOptions opts =
        RuleManagerOptions.defaults(query, storage, storage, this::send)
            .withExternal(cfg.global().externalLabels(), externalUrl)
            .withDefaultInterval(cfg.global().evaluationInterval())
            .withAlertTiming(
                settings.resendDelay(), settings.forOutageTolerance(), settings.forGracePeriod());
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
   * @throws dev.infermon.rules.rulefmt.RuleFileException when a rule file does not load
   */
  static Alerting start(
      Config cfg,
      AlertingSettings settings,
      NotifierMetrics metrics,
      QueryFunction query,
      Storage storage,
      String externalUrl,
      ExportService exports) {
    List<RuleFile> files = RuleFiles.load(cfg.ruleFiles(), cfg.llm(), exports);
    Alerting a = new Alerting(settings, metrics, query, storage, cfg, externalUrl, exports);
    a.notifier = a.newNotifier(cfg);
    a.rules.update(files);
    a.applied = cfg;
    return a;
  }

  /**
   * Applies a reloaded configuration.
   *
   * @throws dev.infermon.rules.rulefmt.RuleFileException when a rule file does not load; nothing
   *     changes then
   */
  synchronized void apply(Config cfg) {
    List<RuleFile> files = RuleFiles.load(cfg.ruleFiles(), cfg.llm(), exports);
    if (!cfg.alerting().equals(applied.alerting())
        || !cfg.global().externalLabels().equals(applied.global().externalLabels())) {
      Notifier old = notifier;
      notifier = newNotifier(cfg);
      old.close();
    }
    if (!cfg.global().externalLabels().equals(applied.global().externalLabels())
        || !cfg.global().evaluationInterval().equals(applied.global().evaluationInterval())) {
      log.warn(
          "global.external_labels and evaluation_interval reach the rules at the next restart");
    }
    rules.update(files);
    applied = cfg;
  }

  private Notifier newNotifier(Config cfg) {
    NotifierOptions opts =
        NotifierConfigs.options(cfg.alerting(), cfg.global().externalLabels())
            .withQueueCapacity(settings.notificationQueueCapacity());
    return new Notifier(opts, NotifierConfigs.sets(cfg.alerting()), metrics);
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
