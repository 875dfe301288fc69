package dev.infermon.llm.signals;

import java.util.Locale;

/**
 * The canonical signals of the router level: what a router or gateway in front of the engines sees.
 * Each router's entry in {@code routers.yaml} maps a signal to its own families; a router that has
 * no source for a signal does not measure it (the panel says so).
 */
public enum RouterSignal {
  /** Requests the router sent to each engine pod, per second. */
  ROUTED(Signal.Kind.COUNTER, "requests"),
  /** Requests in flight to each engine pod as the router counts them. */
  IN_FLIGHT(Signal.Kind.GAUGE, "requests"),
  /** Requests queued, per engine pod as the router reads it, or in the router's own queue. */
  QUEUE(Signal.Kind.GAUGE, "requests"),
  /** Routing decisions per second, by their result or policy. */
  DECISIONS(Signal.Kind.COUNTER, "decisions"),
  /** End-to-end request latency measured at the router, in front of the engines. */
  LATENCY(Signal.Kind.HISTOGRAM, "seconds"),
  /** Time to first token measured at the router: what the user sees. */
  TTFT(Signal.Kind.HISTOGRAM, "seconds");

  private final Signal.Kind kind;
  private final String unit;

  RouterSignal(Signal.Kind kind, String unit) {
    this.kind = kind;
    this.unit = unit;
  }

  /** How the signal is read when its source is of its usual type (a source may differ). */
  public Signal.Kind kind() {
    return kind;
  }

  /** The unit after normalisation. */
  public String unit() {
    return unit;
  }

  /** The key in routers.yaml and panels.yaml ({@code in_flight}). */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The signal with key {@code key}.
   *
   * @throws IllegalArgumentException naming the key and the known ones when there is none
   */
  public static RouterSignal fromKey(String key) {
    for (RouterSignal s : values()) {
      if (s.key().equals(key)) {
        return s;
      }
    }
    StringBuilder known = new StringBuilder();
    for (RouterSignal s : values()) {
      known.append(known.length() == 0 ? "" : ", ").append(s.key());
    }
    throw new IllegalArgumentException(
        "unknown router signal: \"" + key + "\" (one of " + known + ")");
  }
}
