package dev.infermon.config;

import dev.infermon.config.value.Url;
import dev.infermon.config.yaml.MapView;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/** Value checks shared by the mapping classes. Stateless. */
final class Checks {
  private static final Pattern LEGACY_LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  // Kubernetes qualified names: optional DNS-subdomain prefix, then a name of up to 63 chars.
  private static final Pattern K8S_LABEL_KEY =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
              + "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final Pattern K8S_LABEL_VALUE =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");
  // Prometheus's patRulePath: at most one wildcard, and only in the last path segment.
  static final Pattern RULE_PATH = Pattern.compile("^[^*]*(\\*[^/]*)?$");
  static final Pattern FILE_SD_NAME =
      Pattern.compile("^[^*]*(\\*[^/]*)?\\.(json|yml|yaml|JSON|YML|YAML)$");

  private Checks() {}

  static boolean isLabelName(String name) {
    return LEGACY_LABEL_NAME.matcher(name).matches();
  }

  static boolean isKubernetesLabelKey(String key) {
    return K8S_LABEL_KEY.matcher(key).matches();
  }

  /**
   * What is wrong with a pod label matcher of the {@code inference} section ({@code key}: the pod
   * carries the label; {@code key=value}: its value is that), or null when nothing is.
   */
  static String labelMatcherProblem(String matcher) {
    int eq = matcher.indexOf('=');
    String key = eq < 0 ? matcher : matcher.substring(0, eq);
    if (!isKubernetesLabelKey(key)) {
      return quote(matcher) + " is not a valid Kubernetes label key (or key=value)";
    }
    if (eq >= 0 && !K8S_LABEL_VALUE.matcher(matcher.substring(eq + 1)).matches()) {
      return quote(matcher)
          + ": "
          + quote(matcher.substring(eq + 1))
          + " is not a valid label value";
    }
    return null;
  }

  /** Go's %q for the strings that appear in messages. */
  static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
  }

  /** An http(s) URL with a host, or null after reporting the problem. */
  static Url url(MapView v, String key) {
    String text = v.string(key, "");
    if (text.isEmpty()) {
      return null;
    }
    String problem = urlProblem(text);
    if (problem != null) {
      v.error(key, problem);
      return null;
    }
    return new Url(URI.create(text));
  }

  static String urlProblem(String text) {
    URI u;
    try {
      u = new URI(text);
    } catch (URISyntaxException e) {
      return "invalid URL " + quote(text) + ": " + e.getReason();
    }
    if (u.getScheme() == null
        || !(u.getScheme().equalsIgnoreCase("http") || u.getScheme().equalsIgnoreCase("https"))) {
      return "invalid URL " + quote(text) + ": scheme must be http or https";
    }
    if (u.getHost() == null || u.getHost().isEmpty()) {
      return "invalid URL " + quote(text) + ": no host";
    }
    return null;
  }

  /**
   * Checks a Kubernetes label selector ({@code a=b,c!=d,e in (f,g),!h,i}); returns a message or
   * null when it is valid.
   */
  static String labelSelectorProblem(String selector) {
    if (selector.isBlank()) {
      return null;
    }
    for (String req : splitRequirements(selector)) {
      String r = req.trim();
      String problem = requirementProblem(r);
      if (problem != null) {
        return "invalid label selector " + quote(selector) + ": " + problem;
      }
    }
    return null;
  }

  private static java.util.List<String> splitRequirements(String s) {
    java.util.List<String> out = new java.util.ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    out.add(s.substring(start));
    return out;
  }

  private static String requirementProblem(String r) {
    if (r.isEmpty()) {
      return "empty requirement";
    }
    java.util.regex.Matcher set = Pattern.compile("(\\S+)\\s+(in|notin)\\s*\\((.*)\\)").matcher(r);
    if (set.matches()) {
      if (!isKubernetesLabelKey(set.group(1))) {
        return "invalid key " + quote(set.group(1));
      }
      for (String value : set.group(3).split(",", -1)) {
        if (!K8S_LABEL_VALUE.matcher(value.trim()).matches()) {
          return "invalid value " + quote(value.trim());
        }
      }
      return null;
    }
    String[] ops = {"!=", "==", "="};
    for (String op : ops) {
      int i = r.indexOf(op);
      if (i > 0) {
        String key = r.substring(0, i).trim();
        String value = r.substring(i + op.length()).trim();
        if (!isKubernetesLabelKey(key)) {
          return "invalid key " + quote(key);
        }
        if (!K8S_LABEL_VALUE.matcher(value).matches()) {
          return "invalid value " + quote(value);
        }
        return null;
      }
    }
    String key = r.startsWith("!") ? r.substring(1).trim() : r;
    return isKubernetesLabelKey(key) ? null : "invalid key " + quote(key);
  }

  /** Checks {@code host:port}; returns a message or null. */
  static String listenAddressProblem(String address) {
    int colon = address.lastIndexOf(':');
    if (colon < 0) {
      return "invalid listen address " + quote(address) + ": expected host:port";
    }
    String port = address.substring(colon + 1);
    try {
      int p = Integer.parseInt(port);
      if (p < 0 || p > 65535) {
        return "invalid listen address " + quote(address) + ": port out of range";
      }
    } catch (NumberFormatException e) {
      return "invalid listen address " + quote(address) + ": port must be a number";
    }
    return null;
  }
}
