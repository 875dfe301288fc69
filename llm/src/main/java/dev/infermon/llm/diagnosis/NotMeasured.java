package dev.infermon.llm.diagnosis;

import java.util.List;

/**
 * The signals diagnosis could not read for one pod over the window: its engine or release does not
 * expose them, a flag is off, the exporter is not scraped, or no request finished to measure them.
 * A signal listed here was never judged, so its state is neither found nor ruled out ("GPU memory:
 * not measured", never "no full GPU memory"). Immutable.
 *
 * @param model {@code model_name}
 * @param namespace the pod's namespace
 * @param pod the pod
 * @param signals what could not be read, in the order {@link Readings} lists them
 */
public record NotMeasured(String model, String namespace, String pod, List<String> signals) {
  public NotMeasured {
    signals = List.copyOf(signals);
  }
}
