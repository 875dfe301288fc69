package dev.infermon.benchmarks.promql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The side-by-side mains' options ({@code --name value}), work files and machine state. */
final class Cli {
  private Cli() {}

  /**
   * {@code --name value} pairs.
   *
   * @throws IllegalArgumentException naming the argument when one is not a {@code --name value}
   *     pair, or names an option not in {@code known}
   */
  static Map<String, String> options(String[] args, Set<String> known) {
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      String name = args[i].substring(2);
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown option " + args[i] + ", known: " + known);
      }
      out.put(name, args[++i]);
    }
    return out;
  }

  /**
   * The option's value as a whole number of at least {@code min}, or {@code fallback} when absent.
   *
   * @throws IllegalArgumentException naming the option and the value when it is not one
   */
  static int intOption(Map<String, String> opt, String name, int fallback, int min) {
    String v = opt.get(name);
    if (v == null) {
      return fallback;
    }
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " " + v + " is not a whole number", e);
    }
    if (n < min) {
      throw new IllegalArgumentException("--" + name + " " + v + " is below " + min);
    }
    return n;
  }

  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
