package dev.infermon.simulator.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One replayed capture as a scrape target: the page, the labels discovery would give the pod, the
 * scrape job, and how long the captured counters took to accumulate ({@code uptime}): each
 * advancing value grows by its captured value per {@code uptime}, so the mean rates are those of a
 * process that had been up that long when the page was taken.
 *
 * @param name the target's name (its {@code pod} label, else the file's), unique in a fleet
 * @param capture the page
 * @param job the scrape job: {@code inference}, or {@code dcgm} for an exporter's page
 * @param labels the target labels ({@code namespace}, {@code pod}, {@code backend}, ...), in order
 * @param uptime how long the capture's counters took to reach their values
 */
public record ReplayTarget(
    String name, Capture capture, String job, Map<String, String> labels, Duration uptime) {
  /** The namespace of replayed pods unless a label says otherwise. */
  public static final String DEFAULT_NAMESPACE = "replay";

  /** The uptime the CLI assumes unless told ({@code --replay-uptime}). */
  public static final Duration DEFAULT_UPTIME = Duration.ofHours(1);

  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  /** Validates; the labels are copied in order. */
  public ReplayTarget {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a replayed target needs a name");
    }
    Objects.requireNonNull(capture, "capture");
    if (job == null || job.isBlank()) {
      throw new IllegalArgumentException("target " + name + " needs a job");
    }
    Map<String, String> copy = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : labels.entrySet()) {
      checkLabelName(e.getKey());
      copy.put(e.getKey(), Objects.requireNonNull(e.getValue(), "value of " + e.getKey()));
    }
    labels = Collections.unmodifiableMap(copy);
    if (uptime == null || uptime.isNegative() || uptime.isZero()) {
      throw new IllegalArgumentException("uptime must be positive, got " + uptime);
    }
  }

  /**
   * A target for {@code capture} with the labels discovery would give a pod of its engine, changed
   * by {@code overrides}: {@code namespace} {@value #DEFAULT_NAMESPACE}, {@code pod} from the file
   * name, {@code workload_name} the pod's name on a target of job {@code inference} (unless an
   * override names it), {@code backend} from the page's names ({@code vllm}, {@code sglang}, {@code
   * tgi}, {@code dcgm}; none for other pages). An override with an empty value removes the label;
   * {@code job} sets the scrape job instead of a label.
   *
   * @param file the capture's file, whose name gives the default pod name
   * @throws IllegalArgumentException for a label name that is not valid or is reserved ({@code __})
   */
  public static ReplayTarget of(
      Path file, Capture capture, Map<String, String> overrides, Duration uptime) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("namespace", DEFAULT_NAMESPACE);
    labels.put("pod", podName(file));
    String job = capture.engine().equals("dcgm") ? "dcgm" : "inference";
    if (!capture.engine().isEmpty()) {
      labels.put("backend", capture.engine());
    }
    for (Map.Entry<String, String> e : overrides.entrySet()) {
      checkLabelName(e.getKey());
      if (e.getKey().equals("job")) {
        job = e.getValue().isEmpty() ? job : e.getValue();
      } else if (e.getValue().isEmpty()) {
        labels.remove(e.getKey());
      } else {
        labels.put(e.getKey(), e.getValue());
      }
    }
    if (job.equals("inference") && !overrides.containsKey("workload_name")) {
      // inference discovery gives every target the workload it belongs to: the pod's name here
      labels.put("workload_name", labels.getOrDefault("pod", podName(file)));
    }
    String name = labels.getOrDefault("pod", podName(file));
    return new ReplayTarget(name, capture, job, labels, uptime);
  }

  /**
   * Reads {@code FILE[,label=value...]} as {@code --replay} takes it: the capture file, then target
   * labels as {@link #of} applies them. Labels are split at commas, so neither the path nor a value
   * may contain one.
   *
   * @throws IllegalArgumentException for a part that is not {@code label=value}
   * @throws NoSuchFileException when there is no such file
   * @throws IOException when the file cannot be read
   * @throws CaptureException when it is not an exposition page
   */
  public static ReplayTarget fromSpec(String spec, Duration uptime)
      throws IOException, CaptureException {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("--replay needs FILE[,label=value...]");
    }
    String[] parts = spec.split(",", -1);
    Path file = Path.of(parts[0]);
    Map<String, String> overrides = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "bad label \"" + parts[i] + "\" in --replay " + spec + ": expected label=value");
      }
      String label = parts[i].substring(0, eq);
      try {
        checkLabelName(label);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(e.getMessage() + " in --replay " + spec, e);
      }
      overrides.put(label, parts[i].substring(eq + 1));
    }
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no such capture file");
    }
    return of(file, Capture.read(file), overrides, uptime);
  }

  /**
   * The default {@code pod} of a file: its name without the extension, lower-cased, every run of
   * characters other than letters and digits turned into one {@code -}, at most 63 characters (a
   * Kubernetes name).
   */
  public static String podName(Path file) {
    String n = file.getFileName().toString();
    int dot = n.lastIndexOf('.');
    if (dot > 0) {
      n = n.substring(0, dot);
    }
    n = n.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (n.length() > 63) {
      n = n.substring(0, 63).replaceAll("-+$", "");
    }
    return n.isEmpty() ? "capture" : n;
  }

  private static void checkLabelName(String label) {
    if (label == null || !LABEL_NAME.matcher(label).matches()) {
      throw new IllegalArgumentException("not a label name: \"" + label + "\"");
    }
    if (label.startsWith("__")) {
      throw new IllegalArgumentException(
          "label \"" + label + "\" is reserved (names starting with __ belong to the scraper)");
    }
  }
}
