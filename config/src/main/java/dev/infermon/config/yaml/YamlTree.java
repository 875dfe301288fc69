package dev.infermon.config.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads YAML text into a {@link Node} tree with positions, using Jackson's streaming YAML parser.
 * Problems (syntax errors, duplicate keys, several documents) go to the {@link Reader}; the result
 * is then whatever could be read, an empty mapping at worst. Stateless.
 */
public final class YamlTree {
  // An empty plain scalar ("key:") is YAML null, as in Go's yaml.v2; Jackson reads it as "".
  private static final YAMLFactory FACTORY =
      YAMLFactory.builder().enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build();

  private YamlTree() {}

  /** Parses one YAML document; an empty document is an empty mapping. */
  public static Node parse(String yaml, String source, Reader reader) {
    try (JsonParser p = FACTORY.createParser(yaml)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        return Node.MapNode.empty(new Pos(source, 1, 1));
      }
      Node root = read(p, source, reader);
      if (p.nextToken() != null) {
        reader.error(
            pos(p.currentTokenLocation(), source),
            "",
            "more than one YAML document; a configuration file holds exactly one");
      }
      return root;
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      Pos pos = loc == null ? new Pos(source, 1, 1) : pos(loc, source);
      reader.error(pos, "", "invalid YAML: " + withoutPositions(e.getOriginalMessage()));
      return Node.MapNode.empty(new Pos(source, 1, 1));
    } catch (IOException e) {
      reader.error(new Pos(source, 1, 1), "", "cannot read YAML: " + e.getMessage());
      return Node.MapNode.empty(new Pos(source, 1, 1));
    }
  }

  private static Node read(JsonParser p, String source, Reader reader) throws IOException {
    Pos at = pos(p.currentTokenLocation(), source);
    switch (p.currentToken()) {
      case START_OBJECT:
        {
          Map<String, Node.Entry> entries = new LinkedHashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            Pos keyPos = pos(p.currentTokenLocation(), source);
            p.nextToken();
            Node value = read(p, source, reader);
            Node.Entry previous = entries.putIfAbsent(key, new Node.Entry(keyPos, value));
            if (previous != null) {
              reader.error(
                  keyPos,
                  key,
                  "duplicate key; already defined at line " + previous.keyPos().line());
            }
          }
          return new Node.MapNode(at, entries);
        }
      case START_ARRAY:
        {
          List<Node> items = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            items.add(read(p, source, reader));
          }
          return new Node.ListNode(at, items);
        }
      case VALUE_STRING:
        return new Node.ScalarNode(at, p.getText(), Node.ScalarType.STRING);
      case VALUE_NUMBER_INT:
        return new Node.ScalarNode(at, p.getText(), Node.ScalarType.INT);
      case VALUE_NUMBER_FLOAT:
        return new Node.ScalarNode(at, p.getText(), Node.ScalarType.FLOAT);
      case VALUE_TRUE:
      case VALUE_FALSE:
        return new Node.ScalarNode(at, p.getText(), Node.ScalarType.BOOL);
      case VALUE_NULL:
        return new Node.ScalarNode(at, "", Node.ScalarType.NULL);
      default:
        reader.error(at, "", "unsupported YAML construct " + p.currentToken());
        p.skipChildren();
        return new Node.ScalarNode(at, "", Node.ScalarType.NULL);
    }
  }

  private static Pos pos(JsonLocation loc, String source) {
    return new Pos(source, Math.max(1, loc.getLineNr()), Math.max(1, loc.getColumnNr()));
  }

  /**
   * SnakeYAML's message without its position lines (the position is reported separately): the
   * context ("while parsing a block mapping") and the problem ("expected <block end>, ...").
   */
  private static String withoutPositions(String s) {
    if (s == null) {
      return "syntax error";
    }
    StringBuilder sb = new StringBuilder();
    for (String line : s.split("\n")) {
      if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        sb.append(sb.length() == 0 ? "" : ": ").append(line.trim());
      }
    }
    return sb.length() == 0 ? "syntax error" : sb.toString();
  }
}
