package dev.infermon.benchmarks.tsdb;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.tsdb.head.Head;
import java.util.List;

/** Fills a head the way scrape loops do: one transaction per pod and scrape, references cached. */
final class HeadFill {
  private HeadFill() {}

  /** Appends {@code scrapes} scrapes of the generator's fleet; returns the samples appended. */
  static long fill(Head head, LlmSeriesGenerator gen, int scrapes) {
    List<Labels> labels = gen.labels();
    long[] refs = new long[gen.size()];
    double[] values = new double[gen.size()];
    int perPod = gen.seriesPerPod();
    long n = 0;
    for (int s = 0; s < scrapes; s++) {
      long t = gen.next(values);
      for (int p = 0; p < gen.pods(); p++) {
        Appender app = head.appender();
        for (int j = p * perPod, end = j + perPod; j < end; j++) {
          refs[j] = app.append(refs[j], labels.get(j), t, values[j]);
        }
        app.commit();
        n += perPod;
      }
    }
    return n;
  }
}
