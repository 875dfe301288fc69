package dev.infermon.config.yaml;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of one configuration read: the problems and warnings found so far and the directory
 * that relative file paths are resolved against. Reading goes on after a problem, so that one
 * attempt reports everything that is wrong. Not thread-safe; one per read.
 */
public final class Reader {
  private final List<Problem> errors = new ArrayList<>();
  private final List<Problem> warnings = new ArrayList<>();
  private final Path baseDir;

  /** A reader resolving relative paths against {@code baseDir} (null: leave them as written). */
  public Reader(Path baseDir) {
    this.baseDir = baseDir;
  }

  public void error(Pos pos, String path, String message) {
    errors.add(new Problem(pos, path, message));
  }

  public void warn(Pos pos, String path, String message) {
    warnings.add(new Problem(pos, path, message));
  }

  public List<Problem> errors() {
    return List.copyOf(errors);
  }

  public List<Problem> warnings() {
    return List.copyOf(warnings);
  }

  /** A file name from the configuration, joined with the configuration's directory if relative. */
  public String file(String name) {
    if (name.isEmpty() || baseDir == null) {
      return name;
    }
    Path p = Path.of(name);
    return p.isAbsolute() ? name : baseDir.resolve(p).toString();
  }

  /**
   * A view of a mapping; a missing or null node is an empty mapping, any other node is reported and
   * read as empty.
   */
  public MapView view(Node node, Pos parentPos, String path, Section section) {
    if (node == null) {
      return new MapView(this, section, Node.MapNode.empty(parentPos), path);
    }
    if (node instanceof Node.MapNode) {
      return new MapView(this, section, (Node.MapNode) node, path);
    }
    if (!(node instanceof Node.ScalarNode
        && ((Node.ScalarNode) node).type() == Node.ScalarType.NULL)) {
      error(node.pos(), path, "expected a mapping, got " + node.describe());
    }
    return new MapView(this, section, Node.MapNode.empty(node.pos()), path);
  }
}
