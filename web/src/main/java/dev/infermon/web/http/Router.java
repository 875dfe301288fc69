package dev.infermon.web.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps method and path to a {@link Route}. A path is exact, or has one variable segment written
 * {@code <name>} (as {@code /api/v1/label/<name>/values}). Unknown paths get Go's {@code 404 page
 * not found}; a known path with another method gets 405.
 *
 * <p>Threading: filled before the server starts, then only read.
 */
public final class Router {
  private final Map<String, Map<String, Route>> exact = new LinkedHashMap<>();
  private final List<Pattern> patterns = new ArrayList<>();

  /** A path with one variable segment, split around it. */
  private record Pattern(
      String template, String prefix, String suffix, Map<String, Route> byMethod) {}

  /**
   * The route for a request and the path template used as the {@code handler} metric label; {@code
   * changesState} for the routes {@link #addChangingState} added.
   */
  public record Match(Route route, String handler, boolean changesState) {}

  private final java.util.Set<String> changingState = new java.util.HashSet<>();

  /** Adds a route for each of {@code methods}. */
  public Router add(String path, Route route, String... methods) {
    Map<String, Route> byMethod;
    int open = path.indexOf('<');
    if (open < 0) {
      byMethod = exact.computeIfAbsent(path, p -> new LinkedHashMap<>());
    } else {
      int close = path.indexOf('>', open);
      if (close < 0) {
        throw new IllegalArgumentException("unclosed variable in route: " + path);
      }
      Pattern p =
          new Pattern(
              path, path.substring(0, open), path.substring(close + 1), new LinkedHashMap<>());
      patterns.add(p);
      byMethod = p.byMethod();
    }
    for (String m : methods) {
      byMethod.put(m, route);
    }
    return this;
  }

  /**
   * Adds a route that changes state ({@code /-/reload}, remote write): browser requests to it from
   * other sites are refused ({@link CrossSiteGuard}).
   */
  public Router addChangingState(String path, Route route, String... methods) {
    changingState.add(path);
    return add(path, route, methods);
  }

  /** Finds the route for {@code exchange}, setting its path parameter. */
  public Match match(Exchange exchange) {
    String path = exchange.path();
    String method = exchange.method();
    Map<String, Route> byMethod = exact.get(path);
    String template = path;
    if (byMethod == null) {
      for (Pattern p : patterns) {
        if (path.startsWith(p.prefix())
            && path.endsWith(p.suffix())
            && path.length() > p.prefix().length() + p.suffix().length()) {
          String value = path.substring(p.prefix().length(), path.length() - p.suffix().length());
          if (value.indexOf('/') < 0) {
            exchange.pathParam(value);
            byMethod = p.byMethod();
            template = p.template();
            break;
          }
        }
      }
    }
    if (byMethod == null) {
      return new Match(ex -> ex.respondText(404, "404 page not found\n"), "other", false);
    }
    Route r = byMethod.get(method);
    if (r == null && method.equals("HEAD")) {
      r = byMethod.get("GET");
    }
    if (r == null) {
      return new Match(ex -> ex.respondText(405, "Method Not Allowed\n"), template, false);
    }
    return new Match(r, template, changingState.contains(template));
  }
}
