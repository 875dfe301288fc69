package dev.infermon.llm.dashboard;

/**
 * Why a panel (or one engine's part of it) has no data.
 *
 * @param kind the reason
 * @param engine the engine concerned ({@code vllm}, {@code sglang}, {@code dcgm}), or "" for all
 * @param message a sentence for the user
 * @param version the release line that has the signal, when the reason is a version
 * @param flag the flag that enables it, when the reason is a flag
 */
public record EmptyReason(Kind kind, String engine, String message, String version, String flag) {
  /** The reasons a panel can be empty, most actionable first. */
  public enum Kind {
    /** No scrape target matches the filters. */
    NO_TARGETS,
    /** Every matching target of the engine is down. */
    TARGET_DOWN,
    /** The engine (or this release of it) does not expose the signal. */
    NOT_EXPOSED,
    /** The signal needs a flag, a KV connector, or a dcgm counters-CSV field that is off. */
    BEHIND_FLAG,
    /** No GPU reported by a GPU exporter is attributed to the pods in scope. */
    NOT_ATTRIBUTED,
    /**
     * The families are there but their samples did not change in the range (counters flat, gauges
     * held), or a family the engine creates on first use is absent and nothing shows it served.
     */
    NO_TRAFFIC,
    /**
     * The families' samples change in the range, yet the query selects none of their series: a
     * filter or a label the query needs leaves them out.
     */
    NO_MATCH,
    /**
     * The signal's families were removed before the release the targets run (vLLM's V0-only {@code
     * num_requests_swapped}): the query does not apply, so a panel with other data stays OK.
     */
    REMOVED,
    /** The query failed; the message is the backend's. */
    QUERY_ERROR,
    /** The panel needs configuration infermon does not have ({@code llm.cost}'s prices). */
    NOT_CONFIGURED,
    /**
     * No router or gateway is scraped in front of the engines in scope: a router panel's normal
     * answer for a fleet without one, not an error.
     */
    NO_ROUTER
  }

  public EmptyReason {
    if (kind == null || engine == null || message == null) {
      throw new IllegalArgumentException("a reason needs a kind, an engine and a message");
    }
  }
}
