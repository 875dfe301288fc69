package dev.infermon.llm.catalog;

import dev.infermon.llm.signals.RouterSignal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A router or gateway the router level reads ({@code routers.yaml}, {@code routers:}).
 *
 * @param component its key in {@code components} ({@code llm-d-router})
 * @param title its display name
 * @param backend the name the simulator's {@code --router} and the discovery backend use ({@code
 *     llm-d})
 * @param signature families only this router writes: a target with any of them is this router
 * @param shadows engine-named families the router also writes, per backend ({@code
 *     vllm:num_requests_running}): engine queries leave out the series with {@code shadowLabel}
 * @param shadowLabel the label the router's copies carry and the engine's do not, else empty
 * @param modelLabel the label naming the model on its router-wide series
 * @param sources per signal, the current generation first
 */
public record Router(
    String component,
    String title,
    String backend,
    List<String> signature,
    Set<String> shadows,
    String shadowLabel,
    String modelLabel,
    List<RouterSource> sources) {
  /** Validates. */
  public Router {
    signature = List.copyOf(signature);
    shadows = Set.copyOf(shadows);
    sources = List.copyOf(sources);
    if (signature.isEmpty()) {
      throw new IllegalArgumentException("router " + component + " needs a signature");
    }
    if (!shadows.isEmpty() && shadowLabel.isEmpty()) {
      throw new IllegalArgumentException("router " + component + " shadows need a shadow_label");
    }
  }

  /** The sources of {@code s}, current generation first; empty when the router lacks it. */
  public List<RouterSource> sources(RouterSignal s) {
    List<RouterSource> out = new ArrayList<>();
    for (RouterSource src : sources) {
      if (src.signal() == s) {
        out.add(src);
      }
    }
    return out;
  }

  /** Whether a page with {@code families} is this router's. */
  public boolean signedBy(Set<String> families) {
    for (String f : signature) {
      if (families.contains(f)) {
        return true;
      }
    }
    return false;
  }
}
