package dev.infermon.simulator.sglang;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SGLang gateway's aggregated {@code /engine_metrics}: it fetches each worker's page, replaces
 * every {@code :} with {@code _} in the whole text (its parser cannot take colons, so names become
 * {@code sglang_...} and HELP texts change too), appends a {@code worker_addr} label to every
 * sample, and prints each family's HELP and TYPE once with the samples of all workers (see
 * ../shared/research/sglang.md §3.8 and §7). Stateless.
 */
public final class SglangGateway {
  private SglangGateway() {}

  /**
   * One worker behind the gateway.
   *
   * @param address the worker's URL as the gateway knows it ({@code http://10.0.3.7:30000})
   * @param page the worker's own {@code /metrics} text
   */
  public record Worker(String address, String page) {}

  /** The aggregated page. */
  public static String render(List<Worker> workers) {
    Map<String, Family> families = new LinkedHashMap<>();
    for (Worker w : workers) {
      Family current = null;
      for (String raw : w.page().split("\n", -1)) {
        if (raw.isEmpty()) {
          continue;
        }
        String line = raw.replace(':', '_');
        if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
          String name = line.substring(7, line.indexOf(' ', 7));
          current = families.computeIfAbsent(name, n -> new Family());
          if (line.startsWith("# HELP ")) {
            current.help = line;
          } else {
            current.type = line;
          }
        } else if (!line.startsWith("#") && current != null) {
          current.samples.add(withWorker(line, w.address()));
        }
      }
    }
    StringBuilder out = new StringBuilder();
    for (Family f : families.values()) {
      if (f.help != null) {
        out.append(f.help).append('\n');
      }
      if (f.type != null) {
        out.append(f.type).append('\n');
      }
      for (String s : f.samples) {
        out.append(s).append('\n');
      }
    }
    return out.toString();
  }

  private static String withWorker(String sample, String address) {
    String label = "worker_addr=\"" + address.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    int brace = sample.indexOf('{');
    int space = sample.indexOf(' ');
    if (brace >= 0 && brace < space) {
      int close = sample.lastIndexOf('}');
      return sample.substring(0, close) + "," + label + sample.substring(close);
    }
    return sample.substring(0, space) + "{" + label + "}" + sample.substring(space);
  }

  private static final class Family {
    String help;
    String type;
    final List<String> samples = new ArrayList<>();
  }
}
