package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A replay sink that records everything, in order, and knows series only once seen. */
final class RecordingSink implements ReplaySink {
  final Map<Long, Labels> series = new LinkedHashMap<>();
  final List<String> samples = new ArrayList<>();

  @Override
  public void series(long ref, Labels labels) {
    series.put(ref, labels);
  }

  @Override
  public boolean sample(long ref, long t, double v) {
    if (!series.containsKey(ref)) {
      return false;
    }
    samples.add(entry(ref, t, v));
    return true;
  }

  static String entry(long ref, long t, double v) {
    return ref + "@" + t + "=" + Long.toHexString(Double.doubleToRawLongBits(v));
  }
}
