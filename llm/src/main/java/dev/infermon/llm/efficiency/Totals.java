package dev.infermon.llm.efficiency;

import dev.infermon.config.app.LlmConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Sums pods' usage into the figures of a model, a workload or a pod. A sum is given only when every
 * pod in it has the inputs, so a figure never quietly leaves a pod out; an absent figure names the
 * pods that lack what, in the words of {@link Missing}. Stateless.
 */
final class Totals {
  /** Pods named in a reason before "and N more". */
  private static final int NAMED = 3;

  /** Why a pod lacks an input: the texts, with the catalog's family names filled in. */
  record Missing(String tokens, String gpus, String running, String energy) {}

  private Totals() {}

  static Figures of(List<PodUsage> pods, long stepMs, LlmConfig.Cost cost, Missing why) {
    Figure tokens = sum(pods, p -> p.tokens != null, p -> p.tokens, why.tokens());
    Figure gpuSeconds =
        sum(pods, p -> !p.gpuSeconds.isEmpty(), p -> total(p.gpuSeconds), why.gpus());
    Figure idle = idle(pods, stepMs, gpuSeconds, why);
    Figure asleep = gpuSeconds;
    if (gpuSeconds.present()) {
      // pods without the sleep gauge (engines without a sleep mode) count as awake
      asleep = Figure.of(pods.stream().mapToDouble(p -> p.asleepGpuSeconds(stepMs)).sum());
    }
    Figure energy = sum(pods, p -> p.energyJoules != null, p -> p.energyJoules, why.energy());
    Map<String, Double> byModel = new TreeMap<>();
    pods.forEach(p -> p.gpuSeconds.forEach((m, s) -> byModel.merge(m, s, Double::sum)));
    Figure money = cost(gpuSeconds, byModel, cost);
    return new Figures(
        tokens,
        gpuSeconds,
        idle,
        asleep,
        energy,
        ratio(tokens, gpuSeconds, "no GPU time in the window"),
        ratio(tokens, energy, "the GPUs' energy counter did not advance in the window"),
        money,
        perMillion(money, tokens),
        byModel);
  }

  private static Figure idle(List<PodUsage> pods, long stepMs, Figure gpuSeconds, Missing why) {
    if (!gpuSeconds.present()) {
      return gpuSeconds;
    }
    Figure running = sum(pods, p -> !p.runningAt.isEmpty(), p -> 0.0, why.running());
    if (!running.present()) {
      return running;
    }
    double idle = 0;
    for (PodUsage p : pods) {
      idle += p.idleGpuSeconds(stepMs);
    }
    return Figure.of(idle);
  }

  private static Figure cost(Figure gpuSeconds, Map<String, Double> byModel, LlmConfig.Cost cost) {
    if (!gpuSeconds.present()) {
      return gpuSeconds;
    }
    if (!cost.priced()) {
      return Figure.absent("no GPU-hour price is configured (llm.cost.gpu_hour_prices)");
    }
    double total = 0;
    for (Map.Entry<String, Double> e : byModel.entrySet()) {
      if (cost.price(e.getKey()).isEmpty()) {
        return Figure.absent(
            "no price for GPU model \""
                + e.getKey()
                + "\" (not in llm.cost.gpu_hour_prices, and no llm.cost.default_gpu_hour_price)");
      }
      total += e.getValue() / 3600 * cost.price(e.getKey()).get();
    }
    return Figure.of(total);
  }

  private static Figure perMillion(Figure cost, Figure tokens) {
    if (!tokens.present()) {
      return tokens;
    }
    if (!cost.present()) {
      return cost;
    }
    if (tokens.get() == 0) {
      return Figure.absent("no tokens were generated in the window");
    }
    return Figure.of(cost.get() / tokens.get() * 1e6);
  }

  static Figure ratio(Figure num, Figure den, String zero) {
    if (!num.present()) {
      return num;
    }
    if (!den.present()) {
      return den;
    }
    return den.get() > 0 ? Figure.of(num.get() / den.get()) : Figure.absent(zero);
  }

  private static Figure sum(
      List<PodUsage> pods,
      Predicate<PodUsage> has,
      java.util.function.ToDoubleFunction<PodUsage> value,
      String why) {
    List<String> lacking = new ArrayList<>();
    double total = 0;
    for (PodUsage p : pods) {
      if (has.test(p)) {
        total += value.applyAsDouble(p);
      } else {
        lacking.add(p.key());
      }
    }
    return lacking.isEmpty() ? Figure.of(total) : Figure.absent(why + " for " + named(lacking));
  }

  private static double total(Map<String, Double> m) {
    double t = 0;
    for (double v : m.values()) {
      t += v;
    }
    return t;
  }

  /** {@code pod a/b}, or {@code pods a/b, c/d, e/f and 2 more}. */
  static String named(List<String> pods) {
    if (pods.size() == 1) {
      return "pod " + pods.get(0);
    }
    List<String> shown = pods.subList(0, Math.min(NAMED, pods.size()));
    String more = pods.size() > NAMED ? " and " + (pods.size() - NAMED) + " more" : "";
    return "pods " + String.join(", ", shown) + more;
  }
}
