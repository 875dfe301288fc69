package dev.infermon.config.yaml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value with its position: a mapping, a sequence or a scalar. The mapper reads these instead
 * of Jackson's tree because Jackson's tree forgets where each value was written.
 */
public sealed interface Node permits Node.MapNode, Node.ListNode, Node.ScalarNode {
  Pos pos();

  /** "a mapping", "a list", "a string", ... for messages. */
  String describe();

  /** A mapping; keys keep their order and position. Built once by the reader, then only read. */
  record MapNode(Pos pos, Map<String, Entry> entries) implements Node {
    public MapNode {
      entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    public static MapNode empty(Pos pos) {
      return new MapNode(pos, Map.of());
    }

    /** A copy with one entry added or replaced (used by environment overrides). */
    public MapNode with(String key, Entry entry) {
      Map<String, Entry> copy = new LinkedHashMap<>(entries);
      copy.put(key, entry);
      return new MapNode(pos, copy);
    }

    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /** A key's position and its value. */
  record Entry(Pos keyPos, Node value) {}

  /** A sequence. */
  record ListNode(Pos pos, List<Node> items) implements Node {
    public ListNode {
      items = List.copyOf(items);
    }

    @Override
    public String describe() {
      return "a list";
    }
  }

  /** The YAML type a scalar resolved to. */
  enum ScalarType {
    STRING,
    INT,
    FLOAT,
    BOOL,
    NULL
  }

  /** A scalar with its source text. */
  record ScalarNode(Pos pos, String text, ScalarType type) implements Node {
    @Override
    public String describe() {
      switch (type) {
        case NULL:
          return "null";
        case BOOL:
          return "the boolean " + text;
        case INT:
        case FLOAT:
          return "the number " + text;
        default:
          return "the string \"" + text + "\"";
      }
    }
  }
}
