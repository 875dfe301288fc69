package dev.infermon.simulator.http;

import dev.infermon.simulator.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Scrape targets in the formats scrapers read: the simulator's own inventory JSON, a Prometheus
 * {@code file_sd} list, and a complete {@code prometheus.yml}; for the simulated fleet and for
 * replayed captures ({@link Target}). Stateless.
 */
public final class InventoryFormats {
  private InventoryFormats() {}

  /**
   * The inventory: every target with its metadata, URL and target labels.
   *
   * @param address each target's {@code host:port} and path, e.g. {@code 127.0.0.1:9401/metrics}
   */
  public static String inventoryJson(List<PodInfo> pods, Function<PodInfo, String> address) {
    StringBuilder sb = new StringBuilder("{\"targets\":[");
    for (int i = 0; i < pods.size(); i++) {
      PodInfo p = pods.get(i);
      if (i > 0) {
        sb.append(',');
      }
      sb.append("\n{\"name\":").append(Json.str(p.name()));
      sb.append(",\"url\":").append(Json.str("http://" + address.apply(p)));
      sb.append(",\"namespace\":").append(Json.str(p.namespace()));
      sb.append(",\"workload_name\":").append(Json.str(p.workloadName()));
      sb.append(",\"backend\":").append(Json.str(p.backend().label()));
      sb.append(",\"role\":").append(Json.str(p.role()));
      sb.append(",\"engine\":").append(Json.str(p.engine()));
      sb.append(",\"version\":").append(Json.str(p.version()));
      sb.append(",\"model\":").append(Json.str(p.model()));
      sb.append(",\"node\":").append(Json.str(p.node()));
      sb.append(",\"gpus\":").append(p.gpus());
      sb.append(",\"data_parallel\":").append(p.dataParallel());
      sb.append(",\"tensor_parallel\":").append(p.tensorParallel());
      sb.append(",\"labels\":").append(labels(p.targetLabels()));
      sb.append('}');
    }
    return sb.append("\n]}\n").toString();
  }

  /**
   * A scrape target as the printed configurations list it.
   *
   * @param name the target's name (it names the job when targets do not share one path)
   * @param job the scrape job ({@code inference}, {@code dcgm})
   * @param hostPort {@code host:port}
   * @param metricsPath the path of its page
   * @param labels its target labels, in order
   */
  public record Target(
      String name, String job, String hostPort, String metricsPath, Map<String, String> labels) {}

  /**
   * The fleet's targets: job {@code dcgm} or {@code amdgpu} for exporters, {@code inference} for
   * the rest.
   */
  static List<Target> targets(
      List<PodInfo> pods,
      Function<PodInfo, String> hostPort,
      Function<PodInfo, String> metricsPath) {
    return targets(pods, hostPort, metricsPath, null);
  }

  /**
   * As {@link #targets(List, Function, Function)}, each target with an {@code instance} label from
   * {@code instance} (null for none: then the scraper takes the address, as Prometheus does), for
   * targets that share one address.
   */
  public static List<Target> targets(
      List<PodInfo> pods,
      Function<PodInfo, String> hostPort,
      Function<PodInfo, String> metricsPath,
      Function<PodInfo, String> instance) {
    return pods.stream()
        .map(
            p -> {
              Map<String, String> labels = p.targetLabels();
              if (instance != null) {
                labels = new java.util.LinkedHashMap<>(labels);
                labels.put("instance", instance.apply(p));
              }
              return new Target(
                  p.name(),
                  p.backend().gpuExporter() ? p.backend().label() : "inference",
                  hostPort.apply(p),
                  metricsPath.apply(p),
                  labels);
            })
        .toList();
  }

  /**
   * A Prometheus {@code file_sd_configs} file: one group per target with its labels.
   *
   * @param hostPort each target's {@code host:port}
   */
  public static String fileSd(List<PodInfo> pods, Function<PodInfo, String> hostPort) {
    return fileSd(targets(pods, hostPort, p -> "/metrics"));
  }

  /**
   * A {@code file_sd_configs} file of {@code targets}: one group per target with its labels (the
   * job is the scrape config's that reads the file).
   */
  public static String fileSd(List<Target> targets) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < targets.size(); i++) {
      Target t = targets.get(i);
      sb.append(i > 0 ? ",\n" : "\n");
      sb.append("  {\"targets\": [").append(Json.str(t.hostPort())).append("], \"labels\": ");
      sb.append(labels(t.labels())).append('}');
    }
    return sb.append("\n]\n").toString();
  }

  /**
   * A {@code prometheus.yml} that scrapes the fleet: job {@code inference} for the engines and job
   * {@code dcgm} for the exporters, static targets with the same labels as {@link #fileSd}.
   *
   * @param hostPort each target's {@code host:port}
   * @param metricsPath the path of every target's page (with {@code /pods/<name>} when all share
   *     one port: then each target is its own static config)
   */
  public static String prometheusYaml(
      List<PodInfo> pods,
      Function<PodInfo, String> hostPort,
      Function<PodInfo, String> metricsPath,
      int scrapeIntervalSeconds) {
    return prometheusYaml(targets(pods, hostPort, metricsPath), scrapeIntervalSeconds);
  }

  /**
   * A {@code prometheus.yml} scraping {@code targets}: one job per distinct job, in order of first
   * appearance, with static targets and their labels; targets of a job whose paths differ get a job
   * each, {@code <job>/<name>}.
   */
  public static String prometheusYaml(List<Target> targets, int scrapeIntervalSeconds) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Generated by `infermon simulate --print-prometheus-config`.\n");
    sb.append("global:\n");
    sb.append("  scrape_interval: ").append(scrapeIntervalSeconds).append("s\n");
    sb.append("  evaluation_interval: ").append(scrapeIntervalSeconds).append("s\n");
    sb.append("scrape_configs:\n");
    for (String job : targets.stream().map(Target::job).distinct().toList()) {
      List<Target> members = targets.stream().filter(t -> t.job().equals(job)).toList();
      String path = members.get(0).metricsPath();
      boolean sharedPath = members.stream().allMatch(t -> t.metricsPath().equals(path));
      if (sharedPath) {
        sb.append("  - job_name: ").append(yamlScalar(job)).append('\n');
        sb.append("    metrics_path: ").append(path).append('\n');
        sb.append("    static_configs:\n");
        for (Target t : members) {
          staticConfig(sb, t);
        }
      } else {
        for (Target t : members) {
          sb.append("  - job_name: ").append(yamlScalar(job + "/" + t.name())).append('\n');
          sb.append("    metrics_path: ").append(t.metricsPath()).append('\n');
          sb.append("    static_configs:\n");
          staticConfig(sb, t);
        }
      }
    }
    return sb.toString();
  }

  /** Plain names stay plain (as Prometheus's examples write them); anything else is quoted. */
  private static String yamlScalar(String s) {
    return s.matches("[A-Za-z0-9_][A-Za-z0-9_./-]*") ? s : Json.str(s);
  }

  private static void staticConfig(StringBuilder sb, Target t) {
    sb.append("      - targets: ['").append(t.hostPort()).append("']\n");
    sb.append("        labels:\n");
    for (Map.Entry<String, String> e : t.labels().entrySet()) {
      sb.append("          ").append(e.getKey()).append(": ").append(Json.str(e.getValue()));
      sb.append('\n');
    }
  }

  private static String labels(Map<String, String> labels) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, String> e : labels.entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(Json.str(e.getKey())).append(": ").append(Json.str(e.getValue()));
    }
    return sb.append('}').toString();
  }
}
