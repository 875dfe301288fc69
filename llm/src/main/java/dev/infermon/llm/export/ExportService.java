package dev.infermon.llm.export;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.LiveScrape;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.llm.slo.BurnWindow;
import dev.infermon.llm.slo.SloRules;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the LLM layer generates as files, the front door of this package: the dashboard as
 * Grafana JSON, the default alert pack as a rule file or a PrometheusRule resource, and the SLO
 * rules. {@code infermon export}, {@code infermon serve} (which loads the pack and the SLO rules)
 * and {@code /api/v1/llm/export/*} all come here, so the defaults are decided once: every engine of
 * the catalog when none is named, every spelling of those engines when none is named ({@link
 * #spellings}), {@link #DEFAULT_NAME} for the resource.
 *
 * <p>Errors: {@link BadParameterException} naming {@code engines} for an unknown engine, {@code
 * spellings} for an unknown spelling and {@code name} for a name Kubernetes refuses.
 *
 * <p>Needs no storage; {@link #targets} scrapes the pages an export is generated for. Immutable;
 * thread-safe.
 */
public final class ExportService {
  /** The PrometheusRule's {@code metadata.name} when none is given. */
  public static final String DEFAULT_NAME = "infermon-llm";

  private final Catalog catalog;

  public ExportService(Catalog catalog) {
    if (catalog == null) {
      throw new IllegalArgumentException("catalog is required");
    }
    this.catalog = catalog;
  }

  /** The catalog the exports are generated from. */
  public Catalog catalog() {
    return catalog;
  }

  /** The dashboard as a Grafana dashboard's JSON, for {@code engines} (empty: every engine). */
  public String grafana(Collection<String> engines) {
    return grafana(engines, List.of());
  }

  /**
   * The dashboard as a Grafana dashboard's JSON, for {@code engines} in {@code spellings} (empty:
   * every spelling of those engines; see {@link #spellings}).
   */
  public String grafana(Collection<String> engines, Collection<String> spellings) {
    return grafana(engines, spellings, LlmConfig.Cost.NONE);
  }

  /**
   * The dashboard as Grafana JSON for {@code engines} in {@code spellings}, the cost panel's price
   * variable defaulting to {@code cost}'s default price ({@link CostTarget}). The router level has
   * one query per router the catalog knows ({@link RouterTargets}).
   */
  public String grafana(
      Collection<String> engines, Collection<String> spellings, LlmConfig.Cost cost) {
    return GrafanaDashboard.jsonFor(catalog, spellings(engines, spellings), cost);
  }

  /** The default alert pack as a Prometheus rule file, with the thresholds of {@code alerts}. */
  public String rules(Collection<String> engines, LlmConfig.Alerts alerts) {
    return rules(engines, List.of(), alerts);
  }

  /** The default alert pack for {@code engines} in {@code spellings}, as a Prometheus rule file. */
  public String rules(
      Collection<String> engines, Collection<String> spellings, LlmConfig.Alerts alerts) {
    return RuleFiles.prometheusRuleFile(AlertPack.GROUP, alertRules(engines, spellings, alerts));
  }

  /**
   * The default alert pack as a {@code monitoring.coreos.com/v1} PrometheusRule.
   *
   * @param name {@code metadata.name}; null or empty: {@link #DEFAULT_NAME}
   * @param namespace {@code metadata.namespace}; null or empty: none
   */
  public String prometheusRule(
      String name, String namespace, Collection<String> engines, LlmConfig.Alerts alerts) {
    return prometheusRule(name, namespace, engines, List.of(), alerts);
  }

  /** The default alert pack as a PrometheusRule, for {@code engines} in {@code spellings}. */
  public String prometheusRule(
      String name,
      String namespace,
      Collection<String> engines,
      Collection<String> spellings,
      LlmConfig.Alerts alerts) {
    List<AlertRule> rules = alertRules(engines, spellings, alerts);
    try {
      return RuleFiles.prometheusRule(
          name == null || name.isEmpty() ? DEFAULT_NAME : name, namespace, AlertPack.GROUP, rules);
    } catch (IllegalArgumentException e) {
      throw new BadParameterException("name", e.getMessage());
    }
  }

  /**
   * The dashboard as Grafana JSON for the fleet of {@code inventory}: the targets' engines in their
   * spellings, reading only what their releases and features expose ({@link TargetPresence}).
   *
   * @throws BadParameterException naming {@code endpoints} when no target is of a known engine
   */
  public String grafana(Inventory inventory) {
    return grafana(inventory, LlmConfig.Cost.NONE);
  }

  /**
   * The dashboard as Grafana JSON for the fleet of {@code inventory}, the router level for the
   * routers among its targets, the cost panel's price variable defaulting to {@code cost}'s.
   *
   * @throws BadParameterException naming {@code endpoints} when no target is of a known engine
   */
  public String grafana(Inventory inventory, LlmConfig.Cost cost) {
    GrafanaDashboard.Scope fleet =
        new GrafanaDashboard.Scope(
            new TargetPresence(inventory), true, RouterTargets.of(catalog, inventory), cost);
    return GrafanaDashboard.jsonFor(catalog, spellings(inventory), fleet);
  }

  /** The default alert pack for the fleet of {@code inventory}, as a Prometheus rule file. */
  public String rules(Inventory inventory, LlmConfig.Alerts alerts) {
    return RuleFiles.prometheusRuleFile(AlertPack.GROUP, alertRules(inventory, alerts));
  }

  /** The default alert pack for the fleet of {@code inventory}, as a PrometheusRule. */
  public String prometheusRule(
      String name, String namespace, Inventory inventory, LlmConfig.Alerts alerts) {
    List<AlertRule> rules = alertRules(inventory, alerts);
    try {
      return RuleFiles.prometheusRule(
          name == null || name.isEmpty() ? DEFAULT_NAME : name, namespace, AlertPack.GROUP, rules);
    } catch (IllegalArgumentException e) {
      throw new BadParameterException("name", e.getMessage());
    }
  }

  private List<AlertRule> alertRules(Inventory inventory, LlmConfig.Alerts alerts) {
    TargetPresence fleet = new TargetPresence(inventory);
    Map<String, Double> ttft =
        FleetThresholds.ttft(catalog, inventory, alerts.ttftThreshold().toMillis() / 1000.0);
    return AlertPack.rulesFor(catalog, spellings(inventory), alerts, fleet, fleet::exposes, ttft);
  }

  /** How long a scrape of {@link #targets} may take. */
  public static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(10);

  /**
   * The targets an export is generated for: each {@code /metrics} page scraped once and inventoried
   * (engine, spelling, release range, features, families).
   *
   * @throws BadParameterException naming {@code endpoints} and the first page that cannot be
   *     scraped, with why: an export without that target's engine would leave it out silently
   */
  public Inventory targets(List<URI> endpoints) throws InterruptedException {
    LiveScrape scrape = new LiveScrape(catalog, SCRAPE_TIMEOUT);
    List<TargetInventory> out = new ArrayList<>();
    for (URI u : endpoints) {
      try {
        out.add(scrape.scrape(u));
      } catch (IOException | RuntimeException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        throw new BadParameterException(
            "endpoints", "cannot scrape " + u + ": " + m.lines().findFirst().orElse(m));
      }
    }
    return new Inventory(out);
  }

  /**
   * The spellings the targets of {@code inventory} use, in catalog order.
   *
   * @throws BadParameterException naming {@code endpoints} when no target is of a known engine
   */
  public List<Spelling> spellings(Inventory inventory) {
    Set<Spelling> used = new LinkedHashSet<>();
    inventory.targets().forEach(t -> used.add(t.detection().spelling()));
    List<Spelling> out = new ArrayList<>();
    for (var e : catalog.engines()) {
      for (Spelling s : e.spellings()) {
        if (used.contains(s)) {
          out.add(s);
        }
      }
    }
    if (out.isEmpty()) {
      throw new BadParameterException(
          "endpoints",
          "no target is of an engine infermon knows ("
              + inventory.targets().size()
              + " targets read): nothing to export for");
    }
    return out;
  }

  /** The recording rules and burn-rate alerts of {@code slos} as a rule file (docs/slo.md). */
  public String sloRules(List<LlmConfig.Slo> slos) {
    return SloRules.yaml(slos, catalog, BurnWindow.DEFAULT);
  }

  private List<AlertRule> alertRules(
      Collection<String> engines, Collection<String> spellings, LlmConfig.Alerts alerts) {
    return AlertPack.rulesFor(catalog, spellings(engines, spellings), alerts);
  }

  /**
   * The spellings an export reads: of {@code engines} (empty: every engine), those named in {@code
   * asked} by their prefix as the targets expose it ({@code vllm:}, {@code ray_vllm:}, {@code
   * sglang_}; {@value #NO_PREFIX} for an engine's unprefixed names, NVIDIA NIM's), or every
   * spelling the catalog knows when {@code asked} is empty. An engine with one spelling only
   * (dcgm-exporter) keeps it whatever is asked. The default is every known spelling because an
   * export is written without a fleet at hand, and a fleet gains spellings as pods come: a branch
   * for an absent spelling is an empty selector.
   *
   * @throws BadParameterException naming {@code spellings} for a prefix none of the engines has
   */
  public List<Spelling> spellings(Collection<String> engines, Collection<String> asked) {
    List<Spelling> out = new ArrayList<>();
    Set<String> matched = new LinkedHashSet<>();
    for (String e : engines(engines)) {
      List<Spelling> all = catalog.engine(e).spellings();
      for (Spelling s : all) {
        String name = s.prefix().isEmpty() ? NO_PREFIX : s.prefix();
        if (asked.isEmpty() || all.size() == 1 || asked.contains(name)) {
          out.add(s);
          matched.add(name);
        }
      }
    }
    for (String a : asked) {
      if (!matched.contains(a)) {
        throw new BadParameterException(
            "spellings",
            "no chosen engine is spelt \""
                + a
                + "\" (known: "
                + String.join(", ", knownSpellings(engines))
                + ")");
      }
    }
    return out;
  }

  /** How {@link #spellings} names an engine's unprefixed names. */
  public static final String NO_PREFIX = "none";

  private List<String> knownSpellings(Collection<String> engines) {
    List<String> out = new ArrayList<>();
    for (String e : engines(engines)) {
      for (Spelling s : catalog.engine(e).spellings()) {
        String name = s.prefix().isEmpty() ? NO_PREFIX : s.prefix();
        if (!out.contains(name)) {
          out.add(name);
        }
      }
    }
    return out;
  }

  /** {@code asked}, checked against the catalog; empty: every engine of the catalog, in order. */
  private Set<String> engines(Collection<String> asked) {
    Set<String> out = new LinkedHashSet<>();
    if (asked.isEmpty()) {
      catalog.engines().forEach(e -> out.add(e.engine()));
      return out;
    }
    for (String e : asked) {
      try {
        catalog.engine(e);
      } catch (IllegalArgumentException x) {
        throw new BadParameterException("engines", x.getMessage());
      }
      out.add(e);
    }
    return out;
  }
}
