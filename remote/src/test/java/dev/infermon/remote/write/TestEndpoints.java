package dev.infermon.remote.write;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.remote.RemoteWriteConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.remote.agent.AgentStorage;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Fanout;
import java.util.List;

/** Test fixtures: endpoints from YAML (as users write them) and a fanout that feeds a queue. */
public final class TestEndpoints {
  private TestEndpoints() {}

  /**
   * The first {@code remote_write} entry of a config whose entry is {@code url: <url>} followed by
   * {@code extra} (YAML lines indented for the entry's mapping).
   */
  public static RemoteWriteConfig endpoint(String url, String extra) {
    String yaml = "remote_write:\n  - url: " + url + "\n" + extra.stripTrailing() + "\n";
    try {
      return ConfigLoader.create().parse(yaml, "test.yml").remoteWrite().get(0);
    } catch (Exception e) {
      throw new AssertionError("bad test config:\n" + yaml, e);
    }
  }

  /** A storage stack whose commits reach {@code queue}, like the server's in agent mode. */
  public static Fanout fanout(QueueManager queue) {
    return Fanout.of(new AgentStorage(), List.of(queue));
  }

  /** Appends {@code series} × {@code points} samples, one commit per point (one scrape each). */
  public static void scrape(Fanout storage, int series, int points, long startMs) {
    for (int p = 0; p < points; p++) {
      Appender a = storage.appender();
      for (int s = 0; s < series; s++) {
        a.append(Labels.of("__name__", "m", "s", Integer.toString(s)), startMs + p * 1000L, p);
      }
      a.commit();
    }
  }
}
