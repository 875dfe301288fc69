package dev.infermon.discovery;

/**
 * Label names with a meaning to discovery and scraping, as Prometheus's {@code model} names them.
 */
public final class DiscoveryLabels {
  private DiscoveryLabels() {}

  /** The {@code host:port} a target is scraped at. */
  public static final String ADDRESS = "__address__";

  /** The scheme ({@code http}, {@code https}). */
  public static final String SCHEME = "__scheme__";

  /** The URL path scraped. */
  public static final String METRICS_PATH = "__metrics_path__";

  /** A per-target scrape interval ({@code 15s}). */
  public static final String SCRAPE_INTERVAL = "__scrape_interval__";

  /** A per-target scrape timeout ({@code 10s}). */
  public static final String SCRAPE_TIMEOUT = "__scrape_timeout__";

  /** Prefix of labels that become URL parameters. */
  public static final String PARAM_PREFIX = "__param_";

  /** Prefix of labels dropped after target relabeling. */
  public static final String META_PREFIX = "__meta_";

  /** Prefix of labels reserved for internal use and not attached to series. */
  public static final String RESERVED_PREFIX = "__";

  /** The job label. */
  public static final String JOB = "job";

  /** The instance label (defaults to the address). */
  public static final String INSTANCE = "instance";

  /**
   * Replaces every character that is not {@code [a-zA-Z0-9_]} by {@code _}, as Prometheus's {@code
   * strutil.SanitizeLabelName} does for Kubernetes label and annotation keys.
   */
  public static String sanitize(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    boolean changed = false;
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      i += Character.charCount(c);
      boolean ok =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      // One underscore per code point, as Go's regexp replaces runes.
      sb.append(ok ? (char) c : '_');
      changed |= !ok;
    }
    return changed ? sb.toString() : name;
  }
}
