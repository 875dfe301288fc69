package dev.infermon.scrape;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.value.PromDuration;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.Relabel;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns discovered label sets into targets, as Prometheus's {@code PopulateLabels} and {@code
 * TargetsFromGroup}: add {@code job}, {@code __scrape_interval__}, {@code __scrape_timeout__},
 * {@code __metrics_path__}, {@code __scheme__} and the {@code params} as {@code __param_*} where
 * the target does not set them; apply {@code relabel_configs}; require an address; add the scheme's
 * default port; check interval and timeout; drop {@code __meta_*}; default {@code instance} to the
 * address. Stateless.
 */
final class TargetBuilder {
  private TargetBuilder() {}

  /** The outcome for one discovered label set. */
  record Result(Target target, Labels discovered, String error) {
    boolean dropped() {
      return target == null && error == null;
    }
  }

  static Result build(String pool, Labels discovered, ScrapeConfig cfg) {
    Labels.Builder lb = discovered.toBuilder();
    setIfAbsent(lb, discovered, DiscoveryLabels.JOB, cfg.jobName());
    setIfAbsent(
        lb, discovered, DiscoveryLabels.SCRAPE_INTERVAL, PromDuration.format(cfg.scrapeInterval()));
    setIfAbsent(
        lb, discovered, DiscoveryLabels.SCRAPE_TIMEOUT, PromDuration.format(cfg.scrapeTimeout()));
    setIfAbsent(lb, discovered, DiscoveryLabels.METRICS_PATH, cfg.metricsPath());
    setIfAbsent(lb, discovered, DiscoveryLabels.SCHEME, cfg.scheme());
    for (Map.Entry<String, List<String>> p : cfg.params().entrySet()) {
      if (!p.getValue().isEmpty()) {
        lb.set(DiscoveryLabels.PARAM_PREFIX + p.getKey(), p.getValue().get(0));
      }
    }
    Labels pre = lb.build();
    Labels lset = Relabel.process(pre, cfg.relabelConfigs());
    if (lset == null) {
      return new Result(null, pre, null);
    }
    String addr = lset.get(DiscoveryLabels.ADDRESS);
    if (addr.isEmpty()) {
      return new Result(null, pre, "no address");
    }
    Labels.Builder out = lset.toBuilder();
    String scheme = lset.get(DiscoveryLabels.SCHEME);
    if (!hasPort(addr)) {
      if (scheme.equals("http") || scheme.isEmpty()) {
        addr = addr + ":80";
      } else if (scheme.equals("https")) {
        addr = addr + ":443";
      } else {
        return new Result(null, pre, "invalid scheme: \"" + cfg.scheme() + "\"");
      }
      out.set(DiscoveryLabels.ADDRESS, addr);
    }
    if (addr.contains("/")) {
      return new Result(null, pre, "\"" + addr + "\" is not a valid hostname");
    }
    Duration interval;
    Duration timeout;
    try {
      interval = PromDuration.parse(lset.get(DiscoveryLabels.SCRAPE_INTERVAL));
    } catch (IllegalArgumentException e) {
      return new Result(null, pre, "error parsing scrape interval: " + e.getMessage());
    }
    try {
      timeout = PromDuration.parse(lset.get(DiscoveryLabels.SCRAPE_TIMEOUT));
    } catch (IllegalArgumentException e) {
      return new Result(null, pre, "error parsing scrape timeout: " + e.getMessage());
    }
    if (interval.isZero()) {
      return new Result(null, pre, "scrape interval cannot be 0");
    }
    if (timeout.isZero()) {
      return new Result(null, pre, "scrape timeout cannot be 0");
    }
    if (timeout.compareTo(interval) > 0) {
      return new Result(
          null,
          pre,
          "scrape timeout cannot be greater than scrape interval (\""
              + PromDuration.format(timeout)
              + "\" > \""
              + PromDuration.format(interval)
              + "\")");
    }
    for (int i = 0; i < lset.size(); i++) {
      if (lset.name(i).startsWith(DiscoveryLabels.META_PREFIX)) {
        out.del(lset.name(i));
      }
    }
    if (!lset.has(DiscoveryLabels.INSTANCE)) {
      out.set(DiscoveryLabels.INSTANCE, addr);
    }
    Labels res = out.build();
    return new Result(new Target(pool, res, pre, url(res, cfg), interval, timeout), pre, null);
  }

  /** Every target of a group (dropped ones and errors included). */
  static List<Result> fromGroup(String pool, TargetGroup g, ScrapeConfig cfg) {
    Result[] out = new Result[g.targets().size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = build(pool, g.merged(i), cfg);
    }
    return List.of(out);
  }

  /** {@code scheme://address/path?params}, parameters sorted by name as Go's {@code Encode}. */
  static String url(Labels l, ScrapeConfig cfg) {
    Map<String, String> params = new TreeMap<>();
    for (Map.Entry<String, List<String>> p : cfg.params().entrySet()) {
      if (!p.getValue().isEmpty()) {
        params.put(p.getKey(), p.getValue().get(0));
      }
    }
    for (int i = 0; i < l.size(); i++) {
      if (l.name(i).startsWith(DiscoveryLabels.PARAM_PREFIX)) {
        params.put(l.name(i).substring(DiscoveryLabels.PARAM_PREFIX.length()), l.value(i));
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(l.get(DiscoveryLabels.SCHEME)).append("://").append(l.get(DiscoveryLabels.ADDRESS));
    String path = l.get(DiscoveryLabels.METRICS_PATH);
    if (!path.startsWith("/")) {
      sb.append('/');
    }
    sb.append(path);
    char sep = '?';
    for (Map.Entry<String, String> p : params.entrySet()) {
      sb.append(sep)
          .append(URLEncoder.encode(p.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
      sep = '&';
    }
    return sb.toString();
  }

  private static void setIfAbsent(Labels.Builder b, Labels l, String name, String value) {
    if (!l.has(name)) {
      b.set(name, value);
    }
  }

  /** Whether Go's {@code net.SplitHostPort} would find a port. */
  static boolean hasPort(String addr) {
    if (addr.startsWith("[")) {
      int close = addr.indexOf(']');
      return close > 0 && addr.startsWith("]:", close);
    }
    int colon = addr.lastIndexOf(':');
    return colon >= 0 && addr.indexOf(':') == colon;
  }
}
