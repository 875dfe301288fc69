package dev.infermon.llm.export;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.BadParameterException;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.slo.BurnWindow;
import dev.infermon.llm.slo.SloRules;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything the LLM layer generates as files, the front door of this package: the dashboard as
 * Grafana JSON, the default alert pack as a rule file or a PrometheusRule resource, and the SLO
 * rules. {@code infermon export}, {@code infermon serve} (which loads the pack and the SLO rules)
 * and {@code /api/v1/llm/export/*} all come here, so the defaults are decided once: every engine of
 * the catalog when none is named, {@link #DEFAULT_NAME} for the resource.
 *
 * <p>Errors: {@link BadParameterException} naming {@code engines} for an unknown engine and {@code
 * name} for a name Kubernetes refuses.
 *
 * <p>Needs no storage. Immutable; thread-safe.
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
    return GrafanaDashboard.json(catalog, engines(engines));
  }

  /** The default alert pack as a Prometheus rule file, with the thresholds of {@code alerts}. */
  public String rules(Collection<String> engines, LlmConfig.Alerts alerts) {
    return RuleFiles.prometheusRuleFile(AlertPack.GROUP, alertRules(engines, alerts));
  }

  /**
   * The default alert pack as a {@code monitoring.coreos.com/v1} PrometheusRule.
   *
   * @param name {@code metadata.name}; null or empty: {@link #DEFAULT_NAME}
   * @param namespace {@code metadata.namespace}; null or empty: none
   */
  public String prometheusRule(
      String name, String namespace, Collection<String> engines, LlmConfig.Alerts alerts) {
    List<AlertRule> rules = alertRules(engines, alerts);
    try {
      return RuleFiles.prometheusRule(
          name == null || name.isEmpty() ? DEFAULT_NAME : name, namespace, AlertPack.GROUP, rules);
    } catch (IllegalArgumentException e) {
      throw new BadParameterException("name", e.getMessage());
    }
  }

  /** The recording rules and burn-rate alerts of {@code slos} as a rule file (docs/slo.md). */
  public String sloRules(List<LlmConfig.Slo> slos) {
    return SloRules.yaml(slos, catalog, BurnWindow.DEFAULT);
  }

  private List<AlertRule> alertRules(Collection<String> engines, LlmConfig.Alerts alerts) {
    return AlertPack.rules(catalog, engines(engines), alerts);
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
