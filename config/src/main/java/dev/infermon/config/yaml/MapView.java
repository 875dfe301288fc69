package dev.infermon.config.yaml;

import dev.infermon.config.value.ByteSize;
import dev.infermon.config.value.PromDuration;
import dev.infermon.config.value.Secret;
import dev.infermon.model.text.Suggest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Typed, strict access to one YAML mapping of a known {@link Section}. Each getter returns the
 * given default when the key is absent or null, and also when the value is wrong, after reporting
 * the problem with its position and path. {@link #finish()} reports keys the section does not
 * declare. Reading a key the section does not declare is a programming error.
 */
public final class MapView {
  private final Reader reader;
  private final Section section;
  private final Node.MapNode node;
  private final String path;

  MapView(Reader reader, Section section, Node.MapNode node, String path) {
    this.reader = reader;
    this.section = section;
    this.node = node;
    this.path = path;
  }

  public Reader reader() {
    return reader;
  }

  /** The path of this mapping, for example {@code scrape_configs[2]}. */
  public String path() {
    return path;
  }

  /** The path of a key in this mapping. */
  public String path(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** Where this mapping starts. */
  public Pos pos() {
    return node.pos();
  }

  /** Where a key's value is, or where the mapping starts when the key is absent. */
  public Pos pos(String key) {
    Node.Entry e = entry(key);
    return e == null ? node.pos() : e.value().pos();
  }

  /** True if the key is present with a non-null value. */
  public boolean has(String key) {
    Node.Entry e = entry(key);
    return e != null && !isNull(e.value());
  }

  /** The raw node of a key, or null. */
  public Node node(String key) {
    Node.Entry e = entry(key);
    return e == null ? null : e.value();
  }

  /** Reports a problem with a key's value. */
  public void error(String key, String message) {
    reader.error(pos(key), path(key), message);
  }

  /** Reports a problem with this mapping as a whole. */
  public void error(String message) {
    reader.error(node.pos(), path, message);
  }

  public void warn(String key, String message) {
    reader.warn(pos(key), path(key), message);
  }

  public String string(String key, String def) {
    Node.ScalarNode s = scalar(key, "a string");
    return s == null ? def : s.text();
  }

  public Secret secret(String key) {
    Node.ScalarNode s = scalar(key, "a string");
    return s == null ? Secret.NONE : Secret.of(s.text());
  }

  /** A file name, resolved against the configuration's directory. */
  public String file(String key) {
    return reader.file(string(key, ""));
  }

  public boolean bool(String key, boolean def) {
    Node.ScalarNode s = scalar(key, "a boolean");
    if (s == null) {
      return def;
    }
    if (s.type() != Node.ScalarType.BOOL) {
      error(key, "expected a boolean (true or false), got " + s.describe());
      return def;
    }
    return Boolean.parseBoolean(s.text().toLowerCase(java.util.Locale.ROOT));
  }

  /** A non-negative integer. */
  public long count(String key, long def) {
    Node.ScalarNode s = scalar(key, "a non-negative integer");
    if (s == null) {
      return def;
    }
    try {
      if (s.type() == Node.ScalarType.INT) {
        long v = Long.parseLong(s.text());
        if (v >= 0) {
          return v;
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    error(key, "expected a non-negative integer, got " + s.describe());
    return def;
  }

  /** A non-negative integer that fits an int. */
  public int intCount(String key, int def) {
    long v = count(key, def);
    if (v > Integer.MAX_VALUE) {
      error(key, "must be at most " + Integer.MAX_VALUE + ", got " + v);
      return def;
    }
    return (int) v;
  }

  public double number(String key, double def) {
    Node.ScalarNode s = scalar(key, "a number");
    if (s == null) {
      return def;
    }
    if (s.type() == Node.ScalarType.INT || s.type() == Node.ScalarType.FLOAT) {
      try {
        return Double.parseDouble(s.text());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    error(key, "expected a number, got " + s.describe());
    return def;
  }

  public Duration duration(String key, Duration def) {
    Node.ScalarNode s = scalar(key, "a duration");
    if (s == null) {
      return def;
    }
    try {
      return PromDuration.parse(s.text());
    } catch (IllegalArgumentException e) {
      error(key, e.getMessage());
      return def;
    }
  }

  public ByteSize bytes(String key, ByteSize def) {
    Node.ScalarNode s = scalar(key, "a size");
    if (s == null) {
      return def;
    }
    try {
      return ByteSize.parse(s.text());
    } catch (IllegalArgumentException e) {
      error(key, e.getMessage());
      return def;
    }
  }

  /** A list of scalars as strings; absent is the given default. */
  public List<String> strings(String key, List<String> def) {
    Node n = node(key);
    if (n == null || isNull(n)) {
      return def;
    }
    if (!(n instanceof Node.ListNode)) {
      error(key, "expected a list of strings, got " + n.describe());
      return def;
    }
    List<String> out = new ArrayList<>();
    List<Node> items = ((Node.ListNode) n).items();
    for (int i = 0; i < items.size(); i++) {
      Node item = items.get(i);
      if (item instanceof Node.ScalarNode && !isNull(item)) {
        out.add(((Node.ScalarNode) item).text());
      } else {
        reader.error(
            item.pos(), path(key) + "[" + i + "]", "expected a string, got " + item.describe());
      }
    }
    return List.copyOf(out);
  }

  /** A mapping of strings to strings, in file order. */
  public Map<String, String> stringMap(String key) {
    Node n = node(key);
    if (n == null || isNull(n)) {
      return Map.of();
    }
    if (!(n instanceof Node.MapNode)) {
      error(key, "expected a mapping of strings, got " + n.describe());
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, Node.Entry> e : ((Node.MapNode) n).entries().entrySet()) {
      Node v = e.getValue().value();
      if (v instanceof Node.ScalarNode && !isNull(v)) {
        out.put(e.getKey(), ((Node.ScalarNode) v).text());
      } else if (isNull(v)) {
        out.put(e.getKey(), "");
      } else {
        reader.error(
            v.pos(), path(key) + "." + e.getKey(), "expected a string, got " + v.describe());
      }
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  /** The keys of a nested mapping with their positions, for maps with free-form keys. */
  public Map<String, Node.Entry> entries(String key) {
    Node n = node(key);
    if (n == null || isNull(n)) {
      return Map.of();
    }
    if (!(n instanceof Node.MapNode)) {
      error(key, "expected a mapping, got " + n.describe());
      return Map.of();
    }
    return ((Node.MapNode) n).entries();
  }

  /**
   * A list whose elements the function maps; {@code element} gets each node (possibly a null
   * scalar) and its path, and returns null to leave an element out after reporting why.
   */
  public <T> List<T> list(String key, BiFunction<Node, String, T> element) {
    Node n = node(key);
    if (n == null || isNull(n)) {
      return List.of();
    }
    if (!(n instanceof Node.ListNode)) {
      error(key, "expected a list, got " + n.describe());
      return List.of();
    }
    List<T> out = new ArrayList<>();
    List<Node> items = ((Node.ListNode) n).items();
    for (int i = 0; i < items.size(); i++) {
      T t = element.apply(items.get(i), path(key) + "[" + i + "]");
      if (t != null) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  /** A view of a nested mapping (empty when absent). */
  public MapView map(String key, Section nested) {
    Node.Entry e = entry(key);
    return reader.view(e == null ? null : e.value(), node.pos(), path(key), nested);
  }

  /** Reports every key the section does not declare, with the closest declared key if any. */
  public void finish() {
    for (Map.Entry<String, Node.Entry> e : node.entries().entrySet()) {
      String key = e.getKey();
      if (!section.keys().contains(key)) {
        String guess = Suggest.closest(key, section.keys());
        reader.error(
            e.getValue().keyPos(),
            path(key),
            "unknown key" + (guess == null ? "" : "; did you mean " + guess + "?"));
      }
    }
  }

  private Node.Entry entry(String key) {
    if (!section.keys().contains(key)) {
      throw new IllegalStateException("key " + key + " is not declared in section " + section);
    }
    return node.entries().get(key);
  }

  private Node.ScalarNode scalar(String key, String expected) {
    Node n = node(key);
    if (n == null || isNull(n)) {
      return null;
    }
    if (n instanceof Node.ScalarNode) {
      return (Node.ScalarNode) n;
    }
    error(key, "expected " + expected + ", got " + n.describe());
    return null;
  }

  static boolean isNull(Node n) {
    return n instanceof Node.ScalarNode && ((Node.ScalarNode) n).type() == Node.ScalarType.NULL;
  }
}
