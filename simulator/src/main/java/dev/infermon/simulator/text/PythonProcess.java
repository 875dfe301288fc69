package dev.infermon.simulator.text;

/**
 * The default collectors of a single-process Python exporter ({@code python_gc_*}, {@code
 * python_info}, {@code process_*}), with values that grow plausibly with uptime. They carry no
 * {@code _created} series (they are custom collectors in prometheus_client).
 *
 * @param pythonVersion e.g. {@code 3.12.13}
 * @param startEpoch process start, epoch seconds
 * @param now the time of the page, epoch seconds
 * @param residentBytes resident set size
 * @param virtualBytes virtual memory size
 * @param maxFds the file-descriptor limit
 */
public record PythonProcess(
    String pythonVersion,
    double startEpoch,
    double now,
    double residentBytes,
    double virtualBytes,
    double maxFds) {

  /** Writes the families in prometheus_client's order. */
  public void write(PromText out) {
    double up = Math.max(0, now - startEpoch);
    String[] gens = {"0", "1", "2"};
    double[] collected = {5000 + up * 2.9, 800 + up * 0.41, 120 + up * 0.05};
    double[] collections = {600 + up * 0.31, 55 + up * 0.028, 4 + up * 0.0025};
    out.family("python_gc_objects_collected_total", "Objects collected during gc", "counter");
    for (int i = 0; i < 3; i++) {
      out.sortedSample(
          "python_gc_objects_collected_total",
          new String[] {"generation", gens[i]},
          Math.floor(collected[i]));
    }
    out.family(
        "python_gc_objects_uncollectable_total",
        "Uncollectable objects found during GC",
        "counter");
    for (int i = 0; i < 3; i++) {
      out.sortedSample(
          "python_gc_objects_uncollectable_total", new String[] {"generation", gens[i]}, 0);
    }
    out.family(
        "python_gc_collections_total", "Number of times this generation was collected", "counter");
    for (int i = 0; i < 3; i++) {
      out.sortedSample(
          "python_gc_collections_total",
          new String[] {"generation", gens[i]},
          Math.floor(collections[i]));
    }
    String[] v = pythonVersion.split("\\.");
    out.family("python_info", "Python platform information", "gauge");
    out.sortedSample(
        "python_info",
        new String[] {
          "implementation",
          "CPython",
          "major",
          v[0],
          "minor",
          v[1],
          "patchlevel",
          v[2],
          "version",
          pythonVersion
        },
        1);
    out.family("process_virtual_memory_bytes", "Virtual memory size in bytes.", "gauge");
    out.sortedSample("process_virtual_memory_bytes", new String[0], virtualBytes);
    out.family("process_resident_memory_bytes", "Resident memory size in bytes.", "gauge");
    out.sortedSample("process_resident_memory_bytes", new String[0], residentBytes);
    out.family(
        "process_start_time_seconds",
        "Start time of the process since unix epoch in seconds.",
        "gauge");
    out.sortedSample(
        "process_start_time_seconds", new String[0], Math.round(startEpoch * 100) / 100.0);
    out.family(
        "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", "counter");
    out.sortedSample(
        "process_cpu_seconds_total", new String[0], Math.round((9 + up * 0.37) * 100) / 100.0);
    out.family("process_open_fds", "Number of open file descriptors.", "gauge");
    out.sortedSample("process_open_fds", new String[0], 48);
    out.family("process_max_fds", "Maximum number of open file descriptors.", "gauge");
    out.sortedSample("process_max_fds", new String[0], maxFds);
  }
}
